import { RE2JS } from "re2js";
import { validateArguments } from "@/lib/core/json-schema";
import type { LintFinding } from "@/lib/domains/quality";
import { containsValue, deepEqual, snapshotDiff } from "./diff";
import type { Assertion, AssertionOutcome } from "./index";
import { jsonPointer, parsePointer } from "./variables";

/** What an assertion sees of a finished call. */
export interface CallUnderTest {
  status: string;
  isError: boolean;
  result: unknown;
  error: unknown;
  durationMs: number | null;
}

/** What a `lint` assertion sees: the step's server's definitions linted at run time, or why they could not be. */
export type LintUnderTest = { findings: LintFinding[]; tokens: number } | { error: string };

const show = (v: unknown): string => {
  const text = v === undefined ? "nothing" : JSON.stringify(v);
  return text.length > 200 ? `${text.slice(0, 197)}…` : text;
};
/** A path as people read it in a message: the whole result has the empty pointer. */
const where = (path: string) => path || "(the whole result)";

/**
 * RE2 semantics (linear time): a member's pattern runs in the console's process against text a
 * server sent, and a backtracking pattern such as `(a+)+$` would hold the event loop for minutes.
 * No look-around or back-references; the message says so when a pattern uses them.
 */
function compile(pattern: string): { test(text: string): boolean } | string {
  try {
    const re = RE2JS.compile(pattern);
    return { test: (text) => re.matcher(text).find() };
  } catch (err) {
    return `invalid pattern /${pattern}/ (RE2 syntax: no look-around or back-references): ${(err as Error).message}`;
  }
}

function status(a: Extract<Assertion, { kind: "status" }>, call: CallUnderTest): AssertionOutcome {
  const actual = call.status !== "ok" ? "error" : call.isError ? "isError" : "ok";
  if (actual === a.equals) return { kind: "status", passed: true, message: `status is ${actual}` };
  const why = call.status !== "ok" && call.status !== "error" ? ` (${call.status})` : "";
  return { kind: "status", passed: false, message: `status: expected ${a.equals}, got ${actual}${why}` };
}

function json(a: Extract<Assertion, { kind: "json" }>, call: CallUnderTest): AssertionOutcome {
  const fail = (message: string): AssertionOutcome => ({ kind: "json", passed: false, message: `${where(a.path)}: ${message}`, path: a.path });
  if (parsePointer(a.path) === null) return fail(`not a JSON pointer (it starts with "/")`);
  const found = jsonPointer(call.result, a.path);
  if (!found.found) return fail("not found in the result");
  const value = found.value;
  if (a.equals !== undefined && !deepEqual(value, a.equals)) return fail(`expected ${show(a.equals)}, got ${show(value)}`);
  if (a.contains !== undefined && !containsValue(value, a.contains)) return fail(`expected ${show(value)} to contain ${show(a.contains)}`);
  if (a.matches !== undefined) {
    const re = compile(a.matches);
    if (typeof re === "string") return fail(re);
    const text = typeof value === "string" ? value : JSON.stringify(value);
    if (!re.test(text)) return fail(`${show(value)} does not match /${a.matches}/`);
  }
  const checks = [a.equals !== undefined && `equals ${show(a.equals)}`, a.contains !== undefined && `contains ${show(a.contains)}`, a.matches !== undefined && `matches /${a.matches}/`];
  const said = checks.filter(Boolean).join(", ") || "exists";
  return { kind: "json", passed: true, message: `${where(a.path)} ${said}`, path: a.path };
}

function schema(a: Extract<Assertion, { kind: "schema" }>, call: CallUnderTest, outputSchema: unknown): AssertionOutcome {
  const given = a.schema ?? outputSchema;
  if (!given || typeof given !== "object") {
    return { kind: "schema", passed: false, message: "no schema: give one, or assert on a tool that declares an outputSchema" };
  }
  const result = call.result as { structuredContent?: unknown } | null;
  const structured = result !== null && typeof result === "object" && result.structuredContent !== undefined;
  const base = structured ? "/structuredContent" : "";
  const errors = validateArguments(given, structured ? result.structuredContent : call.result);
  if (!errors.length) return { kind: "schema", passed: true, message: `${where(base)} matches the ${a.schema ? "given schema" : "tool's outputSchema"}`, path: base };
  const first = errors.slice(0, 3).map((e) => `${base}${e.path === "/" ? "" : e.path}: ${e.message}`.replace(/^: /, `${where(base)}: `));
  return { kind: "schema", passed: false, message: first.join("; ") + (errors.length > 3 ? ` (and ${errors.length - 3} more)` : ""), path: base };
}

function duration(a: Extract<Assertion, { kind: "duration" }>, call: CallUnderTest): AssertionOutcome {
  if (call.durationMs === null) return { kind: "duration", passed: false, message: `duration: unknown (the call did not finish), budget ${a.maxMs} ms` };
  const passed = call.durationMs <= a.maxMs;
  return { kind: "duration", passed, message: passed ? `took ${call.durationMs} ms (≤ ${a.maxMs} ms)` : `duration: expected ≤ ${a.maxMs} ms, took ${call.durationMs} ms` };
}

function snapshot(a: Extract<Assertion, { kind: "snapshot" }>, call: CallUnderTest): AssertionOutcome {
  if (a.expected === undefined) return { kind: "snapshot", passed: false, message: "no snapshot kept yet; accept this result to keep it" };
  const diff = snapshotDiff(a.expected, call.result, a.ignore);
  if (!diff.length) return { kind: "snapshot", passed: true, message: "matches the snapshot", diff };
  const [one] = diff;
  const message =
    diff.length === 1
      ? `${where(one!.path)}: ${one!.change === "changed" ? `expected ${show(one!.expected)}, got ${show(one!.actual)}` : one!.change === "added" ? `unexpected ${show(one!.actual)}` : `missing ${show(one!.expected)}`}`
      : `differs from the snapshot at ${diff.length} paths: ${diff.slice(0, 5).map((d) => where(d.path)).join(", ")}${diff.length > 5 ? ", …" : ""}`;
  return { kind: "snapshot", passed: false, message, path: one!.path, diff };
}

/** 9120 → "9 120" (a no-break space, so a budget never wraps). */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u00a0");

function lint(a: Extract<Assertion, { kind: "lint" }>, report: LintUnderTest | undefined): AssertionOutcome {
  if (!report) return { kind: "lint", passed: false, message: "lint: the server's definitions were not linted" };
  if ("error" in report) return { kind: "lint", passed: false, message: `lint: the server's definitions could not be linted: ${report.error}` };
  const warnings = a.failOn === "warning";
  const failing = report.findings.filter((f) => f.severity === "error" || (warnings && f.severity === "warning"));
  const noun = (n: number) => (warnings ? (n === 1 ? "lint error or warning" : "lint errors or warnings") : n === 1 ? "lint error" : "lint errors");
  const over = a.maxTokens !== undefined && report.tokens > a.maxTokens;
  const budget = `${grouped(report.tokens)} tokens${a.maxTokens === undefined ? "" : ` ${over ? ">" : "≤"} ${grouped(a.maxTokens)}`}`;
  if (!failing.length && !over) return { kind: "lint", passed: true, message: `no ${noun(0)}; ${budget}` };
  const named = failing.slice(0, 3).map((f) => `${f.rule} ${f.item}`).join(", ") + (failing.length > 3 ? `, and ${failing.length - 3} more` : "");
  const parts = [failing.length ? `${failing.length} ${noun(failing.length)}: ${named}` : null, over ? budget : null];
  return { kind: "lint", passed: false, message: parts.filter(Boolean).join("; ") };
}

/**
 * Checks a finished call against a step's assertions, one outcome per assertion in order. Every
 * failing message names the path it is about, e.g. `/structuredContent/total: expected 3, got 4`.
 */
export function evaluate({ assertions, call, outputSchema, lint: linted }: { assertions: Assertion[]; call: CallUnderTest; outputSchema?: unknown; lint?: LintUnderTest }): AssertionOutcome[] {
  return assertions.map((a) => {
    switch (a.kind) {
      case "status":
        return status(a, call);
      case "json":
        return json(a, call);
      case "schema":
        return schema(a, call, outputSchema);
      case "duration":
        return duration(a, call);
      case "snapshot":
        return snapshot(a, call);
      case "lint":
        return lint(a, linted);
    }
  });
}

/**
 * Problems that make assertions unusable, to reject them when a collection is saved (a zod
 * `superRefine` can add each as an issue at `path`): bad JSON pointers, patterns that do not compile.
 */
export function checkAssertions(assert: Assertion[]): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  assert.forEach((a, i) => {
    if (a.kind === "json") {
      if (parsePointer(a.path) === null) problems.push({ path: [i, "path"], message: `"${a.path}" is not a JSON pointer (it starts with "/", or is empty for the whole result)` });
      if (a.matches !== undefined) {
        const re = compile(a.matches);
        if (typeof re === "string") problems.push({ path: [i, "matches"], message: re });
      }
    }
    if (a.kind === "snapshot") {
      (a.ignore ?? []).forEach((p, j) => {
        if (parsePointer(p) === null) problems.push({ path: [i, "ignore", j], message: `"${p}" is not a JSON pointer` });
      });
    }
    if (a.kind === "duration" && !(Number.isFinite(a.maxMs) && a.maxMs >= 0)) problems.push({ path: [i, "maxMs"], message: "maxMs is a number of milliseconds ≥ 0" });
    if (a.kind === "lint" && a.maxTokens !== undefined && !(Number.isInteger(a.maxTokens) && a.maxTokens >= 0)) problems.push({ path: [i, "maxTokens"], message: "maxTokens is a whole number of tokens ≥ 0" });
  });
  return problems;
}
