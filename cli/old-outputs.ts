import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";

const ASIDE = ".previous-run-";

/**
 * Clears what an earlier run left under the reports folder, so nothing stale is read as this run's. The outputs are
 * moved aside at once (a rename) and deleted on libuv's thread pool while this run starts: a run leaves thousands of
 * Allure files, whose synchronous removal held the CLI thread for about a second. Folders a killed run left aside
 * go too. The promise settles when everything is gone; await it before the process exits.
 */
export function clearOldOutputs(reportsDir: string, outputs: readonly string[]): Promise<void> {
  if (!existsSync(reportsDir)) return Promise.resolve();
  const aside = join(reportsDir, `${ASIDE}${process.pid}-${Date.now()}`);
  mkdirSync(aside);
  for (const name of outputs) {
    const old = join(reportsDir, name);
    if (!existsSync(old)) continue;
    try {
      renameSync(old, join(aside, name));
    } catch {
      rmSync(old, { recursive: true, force: true });
    }
  }
  const stale = readdirSync(reportsDir).filter((name) => name.startsWith(ASIDE));
  // A folder that cannot be deleted now is tried again by the next run; it never fails this one.
  return Promise.all(stale.map((name) => rm(join(reportsDir, name), { recursive: true, force: true }).catch(() => undefined))).then(
    () => undefined,
  );
}
