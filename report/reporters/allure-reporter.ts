import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FileSystemWriter } from "allure-js-commons/sdk/reporter";
import type { TestResult, TestResultContainer } from "allure-js-commons";
import AllureVitestReporter, { type AllureVitestReporterConfig } from "allure-vitest/reporter";
import type { TestModule, Vitest } from "vitest/node";
import type { RuntimeMessage } from "allure-js-commons/sdk";
import { suiteOfFile } from "../../catalogue/test-titles.js";
import { exchangeMessages, type ExchangesByTest } from "./allure-exchanges.js";

interface AllureReporterOptions extends AllureVitestReporterConfig {
  resultsDir: string;
  /**
   * Each test's exchanges, from the run's exchange log: `absorb` reads what the log gained (report/reporters/har.ts),
   * `byTest` holds it by test until the test's result is written.
   */
  exchanges?: { absorb: () => void; byTest: ExchangesByTest };
}

/**
 * allure-js-commons writes every file of allure-results through a temporary file, an fsync and a rename. A run
 * attaches every exchange (about 5,000 files), written all at once when the run ends: the fsyncs alone took
 * seconds on a 2-core machine, against 0.2 s for plain writes. The folder is read once the run has ended, never
 * while it is written, so attachments, results and containers are written plainly; the few other files keep
 * allure's own way.
 */
class PlainWrites extends FileSystemWriter {
  constructor(private readonly dir: string) {
    super({ resultsDir: dir });
    mkdirSync(dir, { recursive: true });
  }

  override writeAttachment(distFileName: string, content: Buffer): void {
    writeFileSync(join(this.dir, distFileName), content);
  }

  override writeResult(result: TestResult): void {
    writeFileSync(join(this.dir, `${result.uuid}-result.json`), JSON.stringify(result));
  }

  override writeGroup(result: TestResultContainer): void {
    writeFileSync(join(this.dir, `${result.uuid}-container.json`), JSON.stringify(result));
  }
}

/**
 * allure-vitest's reporter, writing allure-results with PlainWrites, and each test file's results as the file ends:
 * allure-vitest writes them all when the run ends, and a run's thousands of attachments then held up its end by a
 * second or more, where during the run they are written while the CLI thread waits on the workers.
 */
export class AllureReporter extends AllureVitestReporter {
  private readonly written = new Set<TestModule>();

  constructor(private readonly options: AllureReporterOptions) {
    super(options);
  }

  override onInit(vitest: Vitest): void {
    super.onInit(vitest);
    // The runtime is made in onInit with allure's own writer; its writer field is what every write goes through.
    const runtime = (this as unknown as { allureReporterRuntime?: { writer: unknown } }).allureReporterRuntime;
    if (runtime) runtime.writer = new PlainWrites(this.options.resultsDir);
    // Tests attach to Allure only where a reporter reads it (harness/setup/allure-off-setup.ts).
    for (const project of vitest.projects) project.provide("allure", true);
  }

  onTestModuleEnd(module: TestModule): void {
    this.withExchanges([module]);
    // The task is what allure-vitest reads (onTestRunEnd hands it the same field); vitest does not type it.
    this.handleTask((module as unknown as { task: Parameters<AllureVitestReporter["handleTask"]>[0] }).task);
    this.written.add(module);
  }

  override onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    // What no onTestModuleEnd wrote (a file that never ended), then the run's global messages.
    const rest = modules.filter((m) => !this.written.has(m));
    this.withExchanges(rest);
    super.onTestRunEnd(rest as never);
  }

  /** Each test's exchanges as its steps and one attachment (report/reporters/allure-exchanges.ts), before it is written. */
  private withExchanges(modules: readonly TestModule[]): void {
    const exchanges = this.options.exchanges;
    if (!exchanges) return;
    exchanges.absorb();
    for (const module of modules) {
      const suite = suiteOfFile(module.moduleId);
      for (const test of module.children.allTests()) {
        const messages = exchangeMessages(exchanges.byTest.take(`${suite} > ${test.fullName}`));
        if (messages.length === 0) continue;
        // Where allure-vitest reads a test's runtime messages (the worker's allure calls land there too).
        const meta = test.meta() as { allureRuntimeMessages?: RuntimeMessage[] };
        (meta.allureRuntimeMessages ??= []).push(...messages);
      }
    }
  }
}
