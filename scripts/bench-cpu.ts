// npm run bench -- --cpu [--against REV|DIR] [--runs N]: the CPU a default run costs (user + sys of `npm run
// conformance`, every process and thread of it), and its wall time, as medians over N runs (default 5). With
// --against, the same command in an older checkout runs in turn with this one (old, new, old, new, …), so both
// meet the same machine in the same sitting: a 2-core VM's CPU figures drift by a quarter between sittings, which
// only a side-by-side measure survives. REV is a git revision (checked out in a temporary worktree that borrows
// this checkout's node_modules, removed afterwards); DIR a checkout with its dependencies installed.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { PROJECT_ROOT } from "../test/support/spawn-run.js";

/** One run's cost: CPU of every process it started (user + sys, s) and its wall time (s). */
export interface RunCost {
  cpuS: number;
  userS: number;
  sysS: number;
  wallS: number;
}

export interface CpuSide {
  label: string;
  dir: string;
  runs: RunCost[];
  median: RunCost;
}

/**
 * `npm run conformance` in `dir`, timed by bash's `times` (the user and sys time of the children it waited for: npm,
 * the CLI and its threads, whatever they started). Reports go to `reportsDir` where given, else to a temporary folder,
 * removed afterwards.
 */
export async function costOfRun(dir: string, reportsDir?: string): Promise<RunCost> {
  const reports = reportsDir ?? mkdtempSync(join(tmpdir(), "bench-cpu-"));
  const script = `npm run --silent conformance -- --reports "$1" >/dev/null 2>&1; code=$?; times; exit $code`;
  const started = performance.now();
  try {
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((done, fail) => {
      const child = spawn("bash", ["-c", script, "bench", reports], { cwd: dir, stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.on("error", fail);
      child.on("close", (exitCode) => done({ code: exitCode, stdout: out }));
    });
    const wallS = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`npm run conformance in ${dir} exited ${code} (a run that fails is not a cost to compare)`);
    // `times`: the shell's own user and sys, then its children's ("0m9.512s 0m1.403s").
    const children = stdout.trim().split("\n").at(-1) ?? "";
    const [userS, sysS] = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
    if (userS === undefined || sysS === undefined) throw new Error(`could not read the CPU time from bash's times: ${stdout}`);
    return { cpuS: userS + sysS, userS, sysS, wallS };
  } finally {
    if (reportsDir === undefined) rmSync(reports, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function summarise(label: string, dir: string, runs: RunCost[]): CpuSide {
  return {
    label,
    dir,
    runs,
    median: {
      cpuS: median(runs.map((r) => r.cpuS)),
      userS: median(runs.map((r) => r.userS)),
      sysS: median(runs.map((r) => r.sysS)),
      wallS: median(runs.map((r) => r.wallS)),
    },
  };
}

/** A checkout of `against`: the directory itself, or a temporary worktree of the revision (and how to remove it). */
function checkoutOf(against: string): { dir: string; label: string; remove: () => void } {
  const asDir = resolve(against);
  if (existsSync(join(asDir, "package.json"))) return { dir: asDir, label: asDir, remove: () => {} };
  const rev = execFileSync("git", ["rev-parse", "--short", `${against}^{commit}`], { cwd: PROJECT_ROOT, encoding: "utf8" }).trim();
  const dir = join(mkdtempSync(join(tmpdir(), "bench-against-")), "checkout");
  execFileSync("git", ["worktree", "add", "--detach", dir, rev], { cwd: PROJECT_ROOT, stdio: "ignore" });
  symlinkSync(join(PROJECT_ROOT, "node_modules"), join(dir, "node_modules"));
  return {
    dir,
    label: rev,
    remove: () => {
      execFileSync("git", ["worktree", "remove", "--force", dir], { cwd: PROJECT_ROOT, stdio: "ignore" });
      rmSync(dirname(dir), { recursive: true, force: true });
    },
  };
}

/** This checkout's runs, and the older one's in turn with them where `against` is given. */
export async function benchCpu(options: { runs: number; against?: string }): Promise<CpuSide[]> {
  const old = options.against === undefined ? undefined : checkoutOf(options.against);
  try {
    const sides = [...(old ? [{ label: old.label, dir: old.dir }] : []), { label: "this checkout", dir: PROJECT_ROOT }];
    const costs: RunCost[][] = sides.map(() => []);
    // One run of each first, not measured: caches (tsx, vitest's modules, the kept schemas and keys) filled, as in use.
    for (const side of sides) await costOfRun(side.dir);
    for (let rep = 0; rep < options.runs; rep++) {
      for (const [i, side] of sides.entries()) {
        costs[i]!.push(await costOfRun(side.dir));
        process.stderr.write(`  ${side.label}: run ${rep + 1} of ${options.runs}, ${costs[i]!.at(-1)!.cpuS.toFixed(2)} s CPU\n`);
      }
    }
    return sides.map((side, i) => summarise(side.label, side.dir, costs[i]!));
  } finally {
    old?.remove();
  }
}

/** Lines for the terminal: each side's medians, then new against old. */
export function cpuRows(sides: CpuSide[]): string[] {
  const s = (x: number) => x.toFixed(2);
  const lines = sides.map((side) => {
    const cpus = side.runs.map((r) => r.cpuS);
    return (
      `${side.label.padEnd(16)} CPU ${s(side.median.cpuS)} s (user ${s(side.median.userS)}, sys ${s(side.median.sysS)}; ` +
      `${s(Math.min(...cpus))}-${s(Math.max(...cpus))} over ${side.runs.length} runs), wall ${s(side.median.wallS)} s`
    );
  });
  if (sides.length === 2) {
    const [old, now] = sides as [CpuSide, CpuSide];
    lines.push(
      `this checkout against ${old.label}: CPU ${((100 * now.median.cpuS) / old.median.cpuS).toFixed(0)} %, ` +
        `wall ${((100 * now.median.wallS) / old.median.wallS).toFixed(0)} %`,
    );
  }
  return lines;
}
