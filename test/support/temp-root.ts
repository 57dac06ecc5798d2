// The self-tests' temporary files live under one folder per `npm test`, removed when the run ends. Each test that
// starts a conformance run makes its own reports folder (an exchange log, a HAR and Allure results: 5 to 100 MB), and
// the kill matrix and the first-day tests make hundreds: left in the system's temporary folder, a day of `npm test`
// filled a 100 GB disk. Pointing TMPDIR here before the workers start sends every os.tmpdir() of the workers and of
// the runs they spawn (children inherit the environment) into this one folder.
// CONFORMANCE_KEEP_TEST_TEMP=1 keeps it, for reading a failed self-test's reports afterwards; its path is printed.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "banking-conformance-selftest-"));
  const before = { TMPDIR: process.env.TMPDIR, TMP: process.env.TMP, TEMP: process.env.TEMP };
  process.env.TMPDIR = process.env.TMP = process.env.TEMP = root;
  const keep = process.env.CONFORMANCE_KEEP_TEST_TEMP === "1";
  if (keep) process.stderr.write(`self-tests' temporary files: ${root} (kept: CONFORMANCE_KEEP_TEST_TEMP=1)\n`);
  return () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    if (!keep) rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
