import type { RunDto, StepRunDto } from "../../lib/domains/collections";
import { toJUnit } from "../../lib/domains/collections/junit";
import type { Reporter } from "./args";

const FINISHED = new Set(["passed", "failed", "error", "skipped", "interrupted"]);
const MARK: Record<string, string> = { passed: "✓", failed: "✗", error: "!", interrupted: "!", skipped: "-", pending: "-", running: "-" };

const ms = (n: number | null) => (n === null ? "" : n < 1000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(1)} s`);

/** One finished step as pretty lines: mark, position and label, duration, then what failed. */
export function prettyStep(step: StepRunDto): string[] {
  const head = `  ${MARK[step.status] ?? "?"} ${step.index + 1}. ${step.label}`;
  const tail = step.status === "skipped" ? "skipped" : FINISHED.has(step.status) ? ms(step.durationMs) : "not run";
  const lines = [tail ? `${head}  ${tail}` : head];
  if ((step.status === "error" || step.status === "interrupted") && step.error) lines.push(`      ${step.status}: ${step.error}`);
  for (const a of step.assertions) if (!a.passed) lines.push(`      [${a.kind}] ${a.message}`);
  return lines;
}

export function prettyHeader(run: RunDto, consoleUrl: string): string {
  const env = run.environment ? `, environment ${run.environment}` : "";
  return `Running "${run.collectionName}" (${run.total || run.steps.length} steps${env}): ${consoleUrl}/runs/${run.id}`;
}

export function prettySummary(run: RunDto): string {
  const count = (s: string) => run.steps.filter((x) => x.status === s).length;
  const parts = [`${count("passed")} passed`, `${count("failed")} failed`];
  if (count("error")) parts.push(`${count("error")} errored`);
  if (count("interrupted")) parts.push(`${count("interrupted")} interrupted`);
  if (count("skipped")) parts.push(`${count("skipped")} skipped`);
  const elapsed = run.finishedAt ? ` in ${ms(Date.parse(run.finishedAt) - Date.parse(run.startedAt))}` : "";
  return `${run.status.toUpperCase()}: ${parts.join(", ")} of ${run.steps.length} steps${elapsed}`;
}

/** The whole report of a finished run in the chosen format. */
export function report(run: RunDto, reporter: Reporter, consoleUrl: string): string {
  if (reporter === "json") return `${JSON.stringify(run, null, 2)}\n`;
  if (reporter === "junit") return toJUnit(run);
  return [prettyHeader(run, consoleUrl), ...run.steps.flatMap(prettyStep), prettySummary(run), ""].join("\n");
}

/**
 * Prints steps as they finish, in order: a step is printed once it and every step before it have
 * finished, so polled snapshots of a run give each line exactly once; `final` prints the rest.
 */
export function progressPrinter(write: (line: string) => void) {
  let printed = 0;
  return (run: RunDto, final = false) => {
    while (printed < run.steps.length && (final || FINISHED.has(run.steps[printed]!.status))) {
      for (const line of prettyStep(run.steps[printed]!)) write(line);
      printed++;
    }
  };
}

/** Exit code for a finished run: 0 passed, 1 anything else (failed assertions, errored steps). */
export function exitCode(run: RunDto): number {
  return run.status === "passed" ? 0 : 1;
}
