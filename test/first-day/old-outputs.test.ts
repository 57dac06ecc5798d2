import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { clearOldOutputs } from "../../cli/old-outputs.js";

test("a run's old outputs leave the reports folder at once and are deleted by the time the promise settles; other files stay", async () => {
  const dir = mkdtempSync(join(tmpdir(), "old-outputs-"));
  mkdirSync(join(dir, "allure-results"));
  for (let i = 0; i < 50; i++) writeFileSync(join(dir, "allure-results", `${i}-attachment.json`), "{}");
  writeFileSync(join(dir, "summary.json"), "{}");
  writeFileSync(join(dir, "mine.txt"), "kept");
  // What a killed run left aside.
  mkdirSync(join(dir, ".previous-run-1-2", "allure-results"), { recursive: true });

  const cleared = clearOldOutputs(dir, ["allure-results", "summary.json", "junit.xml"]);
  expect(existsSync(join(dir, "allure-results"))).toBe(false);
  expect(existsSync(join(dir, "summary.json"))).toBe(false);
  await cleared;
  expect(readdirSync(dir)).toEqual(["mine.txt"]);
});

test("a reports folder that does not exist yet is nothing to clear", async () => {
  await expect(clearOldOutputs(join(tmpdir(), "no-such-reports-folder-xyz"), ["summary.json"])).resolves.toBeUndefined();
});
