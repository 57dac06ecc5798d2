// Finishing touches on reports/junit.xml (written by vitest's junit reporter) so CI test viewers agree with
// the verdict: a failure the baseline expects is written as skipped with the baseline's reason, and every
// failure carries the command that replays it alone (and a curl line) in its <system-out>.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ConformanceReport } from "../conformance-types.js";

const unescapeXml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const cdata = (text: string) => `<![CDATA[${text.replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;

export function finishJunit(reportsDir: string, report: ConformanceReport): void {
  const file = join(reportsDir, "junit.xml");
  if (!existsSync(file)) return;
  const expected = new Map((report.expectations?.expected ?? []).map((x) => [x.test, x.reason]));
  if (expected.size === 0 && !report.reproduce) return;
  let xml = readFileSync(file, "utf8");
  xml = xml.replace(
    /<testcase classname="([^"]*)" name="([^"]*)"([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g,
    (whole, classname: string, name: string, rest: string, _end: string, body?: string) => {
      if (body === undefined) return whole;
      const suite = unescapeXml(classname)
        .replace(/^suites\//, "")
        .replace(/\.test\.ts$/, "");
      const fullName = `${suite} > ${unescapeXml(name)}`;
      let inner = body;
      const reason = expected.get(fullName);
      if (reason !== undefined)
        inner = inner.replace(
          /<failure[\s\S]*?<\/failure>|<failure[^>]*\/>/,
          `<skipped message="${escapeXml(`expected failure (baseline): ${reason}`)}"/>`,
        );
      const again = report.reproduce?.[fullName];
      if (again && reason === undefined) {
        const out = `<system-out>${cdata(`rerun: ${again.rerun}${again.curl ? `\ncurl: ${again.curl}` : ""}`)}</system-out>`;
        inner = inner.replace(/\s*$/, `\n            ${out}\n        `);
      }
      return `<testcase classname="${classname}" name="${name}"${rest}>${inner}</testcase>`;
    },
  );
  // Counts follow the testcases again.
  xml = xml.replace(/<testsuite ([^>]*)>([\s\S]*?)<\/testsuite>/g, (_whole, attrs: string, body: string) => {
    const failures = (body.match(/<failure[\s>]/g) ?? []).length;
    const skipped = (body.match(/<skipped[\s/>]/g) ?? []).length;
    const fixed = attrs.replace(/failures="\d+"/, `failures="${failures}"`).replace(/skipped="\d+"/, `skipped="${skipped}"`);
    return `<testsuite ${fixed}>${body}</testsuite>`;
  });
  const total = (xml.match(/<testcase[\s>][\s\S]*?(<\/testcase>|\/>)/g) ?? []).filter((c) => /<failure[\s>]/.test(c)).length;
  xml = xml.replace(/(<testsuites [^>]*?)failures="\d+"/, `$1failures="${total}"`);
  writeFileSync(file, xml);
}
