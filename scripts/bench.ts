// npm run bench [-- --quick] : what a run costs on this machine. Medians over repetitions; no assertions.
//  (a) floor: N sequential raw undici GETs against the embedded reference;
//  (b) the same calls through the harness client (overhead ratio to the floor);
//  (c) the full default conformance run: wall time, requests sent, requests per second;
//  (d) the whole fault matrix: wall time; (e) the legal-variant matrix (every suite per variant): wall time.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { HttpClient } from "../harness/client.js";
import { openSession } from "../harness/session.js";
import { PROJECT_ROOT, spawnConformance } from "../harness/spawn-run.js";
import { startReferenceServer } from "../reference/server.js";

const quick = process.argv.includes("--quick");
const N = quick ? 200 : 1000;
const REPS = quick ? 3 : 5;
const RUN_REPS = quick ? 1 : 3;
const MATRIX_REPS = 1;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function floorAndHarness(): Promise<{ rawMs: number; rawJsonMs: number; harnessMs: number }> {
  const server = await startReferenceServer();
  const client = new HttpClient({ baseUrl: server.baseUrl, headerPrefix: "X-Service-", userAgent: "bench", requestMs: 10_000, maxResponseBytes: 5 << 20 });
  const session = await openSession(client, { apiKey: server.apiKey, from: "127.0.0.1" });
  const path = `/v1/user/${session.userId}/card`;
  const origin = new URL(server.baseUrl).origin;
  const agent = new Agent({ localAddress: "127.0.0.1", keepAliveTimeout: 10_000 });
  const raw: number[] = [];
  const rawJson: number[] = [];
  const harness: number[] = [];
  // The same request the harness sends: same headers, so the ratio is the client's own overhead.
  const rawGet = (requestId: string) =>
    request(`${origin}${path}`, {
      dispatcher: agent,
      headers: {
        "User-Agent": "bench",
        "Cache-Control": "no-cache",
        "X-Service-Client-Authentication": session.sessionToken,
        "X-Service-Client-Request-Id": requestId,
        "X-Service-Geolocation": "0 0 0 0 000",
        "X-Service-Language": "en_US",
      },
    });
  for (let rep = 0; rep < REPS; rep++) {
    let started = performance.now();
    for (let i = 0; i < N; i++) await (await rawGet(`raw-${rep}-${i}`)).body.arrayBuffer();
    raw.push(performance.now() - started);
    started = performance.now();
    for (let i = 0; i < N; i++) JSON.parse(await (await rawGet(`json-${rep}-${i}`)).body.text());
    rawJson.push(performance.now() - started);
    started = performance.now();
    for (let i = 0; i < N; i++) await client.request({ path: `/user/${session.userId}/card`, token: session.sessionToken, from: "127.0.0.1" });
    harness.push(performance.now() - started);
  }
  await agent.close();
  await client.close();
  await server.close();
  return { rawMs: median(raw), rawJsonMs: median(rawJson), harnessMs: median(harness) };
}

async function main(): Promise<void> {
  const { rawMs, rawJsonMs, harnessMs } = await floorAndHarness();
  const runs: { wallMs: number; requests: number; tests: number }[] = [];
  for (let rep = 0; rep < RUN_REPS; rep++) {
    const run = await spawnConformance(["run"], { timeoutMs: 600_000 });
    if (run.code !== 0) throw new Error(`the default run failed (exit ${run.code}): ${run.stdout.slice(-2000)}`);
    // Every exchange a test makes is one Allure attachment: their count is the requests the checks sent.
    const requests = readdirSync(join(run.reportsDir, "allure-results")).filter((f) => f.endsWith("-attachment.json")).length;
    runs.push({ wallMs: run.durationMs, requests, tests: run.summary?.tests.length ?? 0 });
  }
  const matrix: number[] = [];
  const variantMatrix: number[] = [];
  let faults = 0;
  let variants = 0;
  for (let rep = 0; rep < MATRIX_REPS; rep++) {
    const run = await spawnConformance(["kill-matrix", "--only", "faults", "--reports", join(PROJECT_ROOT, "reports", "bench-kill-matrix")], { timeoutMs: 1_800_000 });
    matrix.push(run.durationMs);
    faults = Number(/of (\d+) faults/.exec(run.stdout)?.[1] ?? 0);
    const legal = await spawnConformance(["kill-matrix", "--only", "variants", "--reports", join(PROJECT_ROOT, "reports", "bench-variant-matrix")], { timeoutMs: 1_800_000 });
    variantMatrix.push(legal.durationMs);
    variants = Number(/of (\d+) legal variants/.exec(legal.stdout)?.[1] ?? 0);
  }
  const run = runs.sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;
  const result = {
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? "", node: process.version },
    floor: { requests: N, medianMs: Math.round(rawMs), perRequestMs: rawMs / N },
    floorWithJson: { requests: N, medianMs: Math.round(rawJsonMs), perRequestMs: rawJsonMs / N },
    harness: { requests: N, medianMs: Math.round(harnessMs), perRequestMs: harnessMs / N, overheadRatio: harnessMs / rawMs, overheadRatioToJsonFloor: harnessMs / rawJsonMs },
    defaultRun: { repetitions: RUN_REPS, medianWallMs: run.wallMs, tests: run.tests, requests: run.requests, requestsPerSecond: run.requests / (run.wallMs / 1000) },
    faultMatrix: { repetitions: MATRIX_REPS, faults, medianWallMs: median(matrix) },
    variantMatrix: { repetitions: MATRIX_REPS, variants, medianWallMs: median(variantMatrix) },
    targets: { overheadRatio: 1.3, defaultRunMs: 20_000, faultMatrixMs: 180_000 },
  };
  const rows: [string, string, string][] = [
    ["(a) raw undici floor", `${N} GETs: ${result.floor.medianMs} ms (${result.floor.perRequestMs.toFixed(3)} ms/request)`, ""],
    ["(a') floor + JSON.parse", `${N} GETs: ${result.floorWithJson.medianMs} ms (raw undici reading and parsing the body, as any client must)`, ""],
    ["(b) harness client", `${N} GETs: ${result.harness.medianMs} ms, ${result.harness.overheadRatio.toFixed(2)}x the floor, ${result.harness.overheadRatioToJsonFloor.toFixed(2)}x floor + JSON.parse`, result.harness.overheadRatio <= 1.3 ? "met (≤ 1.3x)" : "missed (≤ 1.3x)"],
    ["(c) default run", `${(run.wallMs / 1000).toFixed(1)} s wall, ${run.tests} tests, ${run.requests} requests, ${result.defaultRun.requestsPerSecond.toFixed(0)} req/s`, run.wallMs <= 20_000 ? "met (≤ 20 s)" : "missed (≤ 20 s)"],
    ["(d) fault matrix", `${(result.faultMatrix.medianWallMs / 1000).toFixed(1)} s wall, ${faults} faults`, result.faultMatrix.medianWallMs <= 180_000 ? "met (≤ 3 min)" : "missed (≤ 3 min)"],
    ["(e) variant matrix", `${(result.variantMatrix.medianWallMs / 1000).toFixed(1)} s wall, ${variants} legal variants, every suite each`, ""],
  ];
  const width = Math.max(...rows.map((r) => r[1].length));
  process.stdout.write(`\nbench on ${result.machine.cpus} cores, ${result.machine.model}, Node ${process.version} (medians of ${REPS}/${RUN_REPS}/${MATRIX_REPS})\n`);
  for (const [name, value, target] of rows) process.stdout.write(`${name.padEnd(24)} ${value.padEnd(width)}  ${target}\n`);
  mkdirSync(join(PROJECT_ROOT, "reports"), { recursive: true });
  writeFileSync(join(PROJECT_ROOT, "reports", "bench.json"), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write("written: reports/bench.json\n");
}

await main();
