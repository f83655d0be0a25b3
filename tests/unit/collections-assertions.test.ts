import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Assertion } from "@/lib/domains/collections";
import type { LintFinding } from "@/lib/domains/quality";
import { checkAssertions, evaluate, type CallUnderTest, type LintUnderTest } from "@/lib/domains/collections/assertions";
import { snapshotDiff } from "@/lib/domains/collections/diff";
import { jsonPointer } from "@/lib/domains/collections/variables";

const result = {
  content: [{ type: "text", text: "The sum of 1 and 2 is 3." }],
  structuredContent: { total: 4, items: ["a", "b"], meta: { at: "2026-11-27T20:00:00Z", by: "x" } },
};
const ok: CallUnderTest = { status: "ok", isError: false, result, error: null, durationMs: 120 };
const one = (a: Assertion, call: CallUnderTest = ok, outputSchema?: unknown) => evaluate({ assertions: [a], call, outputSchema })[0]!;

describe("status", () => {
  const isError = { ...ok, isError: true };
  const failed = { ...ok, status: "timeout", result: null, error: { message: "timed out" } };
  it.each([
    ["ok", ok, true],
    ["ok", isError, false],
    ["isError", isError, true],
    ["isError", ok, false],
    ["error", failed, true],
    ["error", { ...ok, status: "error" }, true],
    ["ok", failed, false],
  ] as const)("equals %s", (equals, call, passed) => {
    expect(one({ kind: "status", equals }, call).passed).toBe(passed);
  });
  it("says what it got", () => {
    expect(one({ kind: "status", equals: "ok" }, failed).message).toBe("status: expected ok, got error (timeout)");
  });
});

describe("json", () => {
  it("passes and fails equals, naming the path", () => {
    expect(one({ kind: "json", path: "/structuredContent/items", equals: ["a", "b"] })).toMatchObject({ passed: true, path: "/structuredContent/items" });
    expect(one({ kind: "json", path: "/structuredContent/total", equals: 3 })).toEqual({
      kind: "json",
      passed: false,
      message: "/structuredContent/total: expected 3, got 4",
      path: "/structuredContent/total",
    });
  });
  it("contains: a substring, an array element, an object subset", () => {
    expect(one({ kind: "json", path: "/content/0/text", contains: "is 3" }).passed).toBe(true);
    expect(one({ kind: "json", path: "/structuredContent/items", contains: "b" }).passed).toBe(true);
    expect(one({ kind: "json", path: "/structuredContent", contains: { meta: { by: "x" } } }).passed).toBe(true);
    expect(one({ kind: "json", path: "/content", contains: { type: "text" } }).passed).toBe(true);
    const miss = one({ kind: "json", path: "/structuredContent/items", contains: "c" });
    expect(miss.passed).toBe(false);
    expect(miss.message).toBe('/structuredContent/items: expected ["a","b"] to contain "c"');
    expect(one({ kind: "json", path: "/structuredContent", contains: { meta: { by: "y" } } }).passed).toBe(false);
    expect(one({ kind: "json", path: "/structuredContent/total", contains: 4 }).passed).toBe(false);
  });
  it("matches a pattern, stringifying non-strings", () => {
    expect(one({ kind: "json", path: "/content/0/text", matches: "^The sum of \\d+" }).passed).toBe(true);
    expect(one({ kind: "json", path: "/structuredContent/total", matches: "^4$" }).passed).toBe(true);
    const miss = one({ kind: "json", path: "/content/0/text", matches: "^sum" });
    expect(miss).toMatchObject({ passed: false, message: '/content/0/text: "The sum of 1 and 2 is 3." does not match /^sum/' });
  });
  it("turns a bad regex into a failed outcome with a clear message", () => {
    const bad = one({ kind: "json", path: "/content/0/text", matches: "([a-" });
    expect(bad.passed).toBe(false);
    expect(bad.message).toMatch(/^\/content\/0\/text: invalid pattern \/\(\[a-\/ \(RE2 syntax/);
  });

  it("matches in linear time: a pattern that backtracks for minutes in JavaScript answers at once", () => {
    // With new RegExp("^(a+)+$") this takes 2^40 steps and the test never finishes; RE2 answers at once.
    const result = evaluate({ assertions: [{ kind: "json", path: "/text", matches: "^(a+)+$" }], call: { status: "ok", isError: false, result: { text: `${"a".repeat(40)}b` }, error: null, durationMs: 1 } });
    expect(result[0]!.passed).toBe(false);
  });

  it("refuses look-behind and back-references on save, naming RE2", () => {
    expect(checkAssertions([{ kind: "json", path: "/a", matches: "(?<=x)y" }])[0]!.message).toMatch(/RE2 syntax/);
    expect(checkAssertions([{ kind: "json", path: "/a", matches: "(a)\\1" }])[0]!.message).toMatch(/RE2 syntax/);
  });
  it("fails a path that finds nothing, and one that is not a pointer", () => {
    expect(one({ kind: "json", path: "/structuredContent/nope" }).message).toBe("/structuredContent/nope: not found in the result");
    expect(one({ kind: "json", path: "/structuredContent/total" }).passed).toBe(true);
    expect(one({ kind: "json", path: "total", equals: 4 }).message).toMatch(/^total: not a JSON pointer/);
  });
});

describe("schema", () => {
  const outputSchema = { type: "object", properties: { total: { type: "number" }, items: { type: "array" } }, required: ["total"] };
  it("validates structuredContent against the tool's outputSchema by default", () => {
    expect(one({ kind: "schema" }, ok, outputSchema)).toMatchObject({ passed: true, path: "/structuredContent" });
  });
  it("prefers the given schema and names the failing path", () => {
    const out = one({ kind: "schema", schema: { type: "object", properties: { total: { type: "string" } } } }, ok, outputSchema);
    expect(out.passed).toBe(false);
    expect(out.message).toBe("/structuredContent/total: must be string");
    const missing = one({ kind: "schema", schema: { type: "object", required: ["count"] } });
    expect(missing.message).toBe("/structuredContent/count: must have required property 'count'");
  });
  it("falls back to the whole result without structuredContent", () => {
    const call = { ...ok, result: { tools: [] } };
    expect(one({ kind: "schema", schema: { type: "object", required: ["tools"] } }, call).passed).toBe(true);
    expect(one({ kind: "schema", schema: { type: "object", required: ["prompts"] } }, call).message).toBe("/prompts: must have required property 'prompts'");
  });
  it("fails with no schema at all", () => {
    expect(one({ kind: "schema" })).toMatchObject({ passed: false, message: expect.stringMatching(/^no schema/) });
  });
});

describe("duration", () => {
  it("passes within the budget and fails over it", () => {
    expect(one({ kind: "duration", maxMs: 120 }).passed).toBe(true);
    expect(one({ kind: "duration", maxMs: 100 })).toMatchObject({ passed: false, message: "duration: expected ≤ 100 ms, took 120 ms" });
    expect(one({ kind: "duration", maxMs: 100 }, { ...ok, durationMs: null }).passed).toBe(false);
  });
});

describe("snapshot", () => {
  it("passes on an equal result and asks to accept one when none is kept", () => {
    expect(one({ kind: "snapshot", expected: structuredClone(result) })).toMatchObject({ passed: true, diff: [] });
    expect(one({ kind: "snapshot" })).toMatchObject({ passed: false, message: "no snapshot kept yet; accept this result to keep it" });
  });
  it("lists the differences by path", () => {
    const expected = { ...structuredClone(result), structuredContent: { total: 3, items: ["a"], meta: { at: "yesterday", by: "x", gone: 1 } } };
    const out = one({ kind: "snapshot", expected });
    expect(out.passed).toBe(false);
    expect(out.diff).toEqual([
      { path: "/structuredContent/total", expected: 3, actual: 4, change: "changed" },
      { path: "/structuredContent/items/1", actual: "b", change: "added" },
      { path: "/structuredContent/meta/at", expected: "yesterday", actual: "2026-11-27T20:00:00Z", change: "changed" },
      { path: "/structuredContent/meta/gone", expected: 1, change: "removed" },
    ]);
    expect(out.message).toMatch(/^differs from the snapshot at 4 paths: \/structuredContent\/total, /);
  });
  it("ignores paths and their subtrees, with * for any key", () => {
    const expected = { ...structuredClone(result), structuredContent: { ...result.structuredContent, meta: { at: "yesterday", by: "z" } } };
    expect(one({ kind: "snapshot", expected, ignore: ["/structuredContent/meta"] }).passed).toBe(true);
    const partly = one({ kind: "snapshot", expected, ignore: ["/structuredContent/meta/at"] });
    expect(partly).toMatchObject({ passed: false, message: '/structuredContent/meta/by: expected "z", got "x"', path: "/structuredContent/meta/by" });
    expect(snapshotDiff({ list: [{ id: 1, at: 1 }, { id: 2, at: 2 }] }, { list: [{ id: 1, at: 5 }, { id: 2, at: 6 }] }, ["/list/*/at"])).toEqual([]);
  });

  it("finds exactly the changed leaf of any JSON document (property)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1 }), fc.integer(), (doc, n) => {
        expect(snapshotDiff(doc, structuredClone(doc))).toEqual([]);
        const keys = Object.keys(doc);
        const key = keys[Math.abs(n) % keys.length]!;
        const changed = { ...doc, [key]: { changed: n } };
        const diff = snapshotDiff(doc, changed);
        expect(diff.length).toBeGreaterThan(0);
        for (const d of diff) expect(d.path.startsWith(`/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`)).toBe(true);
        expect(jsonPointer(changed, diff[0]!.path).found || diff[0]!.change === "removed").toBe(true);
        expect(snapshotDiff(doc, changed, [`/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`])).toEqual([]);
      }),
    );
  });
});

describe("lint", () => {
  const finding = (rule: string, severity: LintFinding["severity"], item: string): LintFinding => ({ rule, severity, item, message: `${rule} on ${item}` });
  const clean: LintUnderTest = { findings: [finding("read-only-hint", "info", "tool:get_x")], tokens: 1234 };
  const faulty: LintUnderTest = {
    findings: [finding("name-duplicate", "error", "tool:twice"), finding("description-short", "warning", "tool:short"), finding("name-format", "error", "tool:bad name!"), finding("schema-dialect", "error", "tool:s"), finding("input-schema-type", "error", "tool:t")],
    tokens: 9120,
  };
  const lint = (a: Omit<Extract<Assertion, { kind: "lint" }>, "kind">, report: LintUnderTest | undefined) => evaluate({ assertions: [{ kind: "lint", ...a }], call: ok, lint: report })[0]!;

  it("passes a server without errors within the budget, ignoring infos", () => {
    expect(lint({ maxTokens: 8000 }, clean)).toEqual({ kind: "lint", passed: true, message: "no lint errors; 1\u00a0234 tokens ≤ 8\u00a0000" });
    expect(lint({}, clean)).toMatchObject({ passed: true, message: "no lint errors; 1\u00a0234 tokens" });
  });
  it("fails on errors, naming the first three rules and items, and past the budget", () => {
    expect(lint({ maxTokens: 8000 }, faulty).message).toBe("4 lint errors: name-duplicate tool:twice, name-format tool:bad name!, schema-dialect tool:s, and 1 more; 9\u00a0120 tokens > 8\u00a0000");
    expect(lint({ maxTokens: 9120 }, { ...faulty, findings: [] })).toMatchObject({ passed: true });
    expect(lint({ maxTokens: 9119 }, { ...faulty, findings: [] })).toMatchObject({ passed: false, message: "9\u00a0120 tokens > 9\u00a0119" });
  });
  it("fails on warnings only when asked to", () => {
    const warned: LintUnderTest = { findings: [finding("description-short", "warning", "tool:short")], tokens: 10 };
    expect(lint({}, warned).passed).toBe(true);
    expect(lint({ failOn: "warning" }, warned)).toMatchObject({ passed: false, message: "1 lint error or warning: description-short tool:short" });
  });
  it("fails when the definitions could not be linted, saying why", () => {
    expect(lint({}, { error: "The server did not answer" })).toMatchObject({ passed: false, message: "lint: the server's definitions could not be linted: The server did not answer" });
    expect(lint({}, undefined).passed).toBe(false);
  });
});

describe("checkAssertions", () => {
  it("rejects a bad regex, a non-pointer path or ignore path and a negative budget, with where", () => {
    const problems = checkAssertions([
      { kind: "status", equals: "ok" },
      { kind: "json", path: "/a", matches: "(" },
      { kind: "json", path: "a" },
      { kind: "snapshot", ignore: ["/ok", "bad"] },
      { kind: "duration", maxMs: -1 },
      { kind: "lint", maxTokens: 1.5 },
    ]);
    expect(problems.map((p) => p.path)).toEqual([[1, "matches"], [2, "path"], [3, "ignore", 1], [4, "maxMs"], [5, "maxTokens"]]);
    expect(problems[0]!.message).toMatch(/invalid pattern/);
    expect(checkAssertions([{ kind: "json", path: "", matches: "^\\w+$" }])).toEqual([]);
  });
});
