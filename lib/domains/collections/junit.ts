import type { RunDto, StepRunDto } from "./index";

/**
 * Text safe inside XML content and double- or single-quoted attributes. Characters XML 1.0 cannot
 * carry at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF) become U+FFFD.
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    // Attribute values normalise raw newlines and tabs to spaces; character references survive.
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;")
    .replace(/\t/g, "&#9;");
}

const seconds = (ms: number | null | undefined) => ((ms ?? 0) / 1000).toFixed(3);
const attrs = (pairs: Record<string, string | number>) =>
  Object.entries(pairs)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join("");

function testcase(run: RunDto, step: StepRunDto): string {
  const open = `    <testcase${attrs({ name: `${step.index + 1}. ${step.label}`, classname: run.collectionName, time: seconds(step.durationMs) })}`;
  const failed = step.assertions.filter((a) => !a.passed);
  const lines = failed.map((a) => `[${a.kind}] ${a.message}`);
  if (step.status === "failed") {
    const message = failed.length ? lines.join("; ") : (step.error ?? "failed");
    return `${open}>\n      <failure${attrs({ message, type: "assertion" })}>${escapeXml(lines.join("\n") || message)}</failure>\n    </testcase>`;
  }
  if (step.status === "error" || step.status === "interrupted") {
    const message = step.error ?? "the step could not run";
    return `${open}>\n      <error${attrs({ message, type: step.status })}>${escapeXml(message)}</error>\n    </testcase>`;
  }
  if (step.status !== "passed") {
    const why = step.status === "skipped" ? "skipped after an earlier failure" : `not run (${step.status})`;
    return `${open}>\n      <skipped${attrs({ message: why })}/>\n    </testcase>`;
  }
  return `${open}/>`;
}

/**
 * A run as JUnit XML, the format CI systems read: one `<testsuite>` for the run, one `<testcase>`
 * per step, a `<failure>` listing the failed assertions, an `<error>` for a step that could not
 * run, `<skipped/>` for steps not run; times in seconds.
 */
export function toJUnit(run: RunDto): string {
  const count = (status: string) => run.steps.filter((s) => s.status === status).length;
  const failures = count("failed");
  const errors = count("error") + count("interrupted");
  const skipped = run.steps.length - failures - errors - count("passed");
  const elapsed = run.finishedAt ? Date.parse(run.finishedAt) - Date.parse(run.startedAt) : run.steps.reduce((sum, s) => sum + (s.durationMs ?? 0), 0);
  const totals = { tests: run.steps.length, failures, errors, skipped, time: seconds(Math.max(0, elapsed)) };
  const properties = [
    ["run", run.id],
    ["collection", run.collectionId],
    ["status", run.status],
    ["environment", run.environment ?? ""],
    ["origin", run.origin],
  ]
    .map(([name, value]) => `      <property${attrs({ name: name!, value: value! })}/>`)
    .join("\n");
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites${attrs({ name: "switchboard", ...totals })}>`,
    `  <testsuite${attrs({ name: run.collectionName, id: run.id, ...totals, timestamp: run.startedAt })}>`,
    `    <properties>\n${properties}\n    </properties>`,
    ...run.steps.map((step) => testcase(run, step)),
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
