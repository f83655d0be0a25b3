import type { LintReport } from "../../lib/domains/quality";
import { LINT_RULES } from "../../lib/domains/quality";
import { escapeXml } from "../../lib/domains/collections/junit";

/** What `switchboard lint` judged: the report, the budget and whether the gate failed. */
export interface LintVerdict {
  server: string;
  report: LintReport;
  maxTokens?: number;
}

const overBudget = (v: LintVerdict) => v.maxTokens !== undefined && v.report.tokens.total > v.maxTokens;
const errors = (v: LintVerdict) => v.report.findings.filter((f) => f.severity === "error").length;

/** 1 when any finding is an error or the total is past --max-tokens, else 0. */
export function lintExitCode(v: LintVerdict): number {
  return errors(v) || overBudget(v) ? 1 : 0;
}

function budgetLine(v: LintVerdict): string {
  const { total, tokenizer } = v.report.tokens;
  if (v.maxTokens === undefined) return `Token cost: ${total} tokens (${tokenizer}); no budget set (--max-tokens)`;
  return overBudget(v)
    ? `Token budget exceeded: ${total} tokens > --max-tokens ${v.maxTokens} (${tokenizer})`
    : `Token budget met: ${total} tokens ≤ --max-tokens ${v.maxTokens} (${tokenizer})`;
}

const MARK = { error: "✗", warning: "!", info: "i" } as const;

export function prettyLint(v: LintVerdict): string {
  const { findings } = v.report;
  const count = (s: string) => findings.filter((f) => f.severity === s).length;
  const lines = [`Lint of "${v.server}" (snapshot ${v.report.snapshotId} of ${v.report.takenAt})`];
  for (const f of findings) lines.push(`  ${MARK[f.severity]} ${f.severity} ${f.rule} ${f.item}: ${f.message}`);
  lines.push(budgetLine(v));
  lines.push(`${lintExitCode(v) ? "FAILED" : "PASSED"}: ${count("error")} errors, ${count("warning")} warnings, ${count("info")} infos`);
  return `${lines.join("\n")}\n`;
}

const attrs = (pairs: Record<string, string | number>) =>
  Object.entries(pairs)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join("");

/**
 * JUnit XML: one testcase per finding (an error finding fails, a warning or info passes with its
 * message in system-out) and one for the token budget (failing past --max-tokens).
 */
export function lintJUnit(v: LintVerdict): string {
  const suite = `lint ${v.server}`;
  const cases = v.report.findings.map((f) => {
    const open = `    <testcase${attrs({ name: `${f.rule} ${f.item}`, classname: suite, time: "0.000" })}>`;
    const body = f.severity === "error" ? `<failure${attrs({ message: f.message, type: f.rule })}>${escapeXml(f.message)}</failure>` : `<system-out>${escapeXml(`${f.severity}: ${f.message}`)}</system-out>`;
    return `${open}\n      ${body}\n    </testcase>`;
  });
  const budget = budgetLine(v);
  cases.push(
    overBudget(v)
      ? `    <testcase${attrs({ name: "token budget", classname: suite, time: "0.000" })}>\n      <failure${attrs({ message: budget, type: "token-budget" })}>${escapeXml(budget)}</failure>\n    </testcase>`
      : `    <testcase${attrs({ name: "token budget", classname: suite, time: "0.000" })}>\n      <system-out>${escapeXml(budget)}</system-out>\n    </testcase>`,
  );
  const totals = { tests: cases.length, failures: errors(v) + (overBudget(v) ? 1 : 0), errors: 0, skipped: 0, time: "0.000" };
  const rules = LINT_RULES.map((r) => `${r.id}=${r.severity}`).join(", ");
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites${attrs({ name: "switchboard", ...totals })}>`,
    `  <testsuite${attrs({ name: suite, ...totals, timestamp: v.report.takenAt ?? "" })}>`,
    `    <properties>`,
    `      <property${attrs({ name: "snapshot", value: v.report.snapshotId ?? "" })}/>`,
    `      <property${attrs({ name: "tokens", value: v.report.tokens.total })}/>`,
    `      <property${attrs({ name: "tokenizer", value: v.report.tokens.tokenizer })}/>`,
    `      <property${attrs({ name: "rules", value: rules })}/>`,
    `    </properties>`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
