import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RunDto, StepRunDto } from "@/lib/domains/collections";
import { escapeXml, toJUnit } from "@/lib/domains/collections/junit";
import { findAll, parseXml } from "../support/xml";

const step = (over: Partial<StepRunDto>): StepRunDto => ({
  index: 0,
  stepId: "s",
  label: "tools/call echo",
  callId: "call_1",
  status: "passed",
  durationMs: 12,
  error: null,
  assertions: [],
  ...over,
});

const sampleRun = (over: Partial<RunDto> = {}): RunDto => ({
  id: "run_1",
  collectionId: "col_1",
  collectionName: `Smoke <tests> & "quotes" 'too'`,
  status: "failed",
  environment: "staging",
  origin: "cli",
  stopOnFailure: false,
  startedAt: "2026-11-27T20:00:00.000Z",
  finishedAt: "2026-11-27T20:00:01.500Z",
  startedBy: { id: "u1", name: "Ada" },
  passed: 1,
  failed: 2,
  total: 4,
  steps: [
    step({ index: 0, label: "tools/call echo", assertions: [{ kind: "status", passed: true, message: "status is ok" }] }),
    step({
      index: 1,
      stepId: "add",
      label: "add <1 & 2>",
      status: "failed",
      durationMs: 1234,
      assertions: [
        { kind: "status", passed: true, message: "status is ok" },
        { kind: "json", passed: false, message: "/structuredContent/total: expected 3, got 4", path: "/structuredContent/total" },
        { kind: "duration", passed: false, message: "duration: expected ≤ 1000 ms, took 1234 ms" },
      ],
    }),
    step({ index: 2, label: "resources/read {{uri}}", status: "error", durationMs: null, callId: null, error: '{{steps.9#/x}}: step 9 has not run before this one "quoted"' }),
    step({ index: 3, label: "prompts/get simple", status: "skipped", durationMs: null, callId: null }),
  ],
  ...over,
});

describe("toJUnit", () => {
  const xml = toJUnit(sampleRun());
  const root = parseXml(xml);

  it("is well-formed XML with one suite and one testcase per step, counts and times", () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')).toBe(true);
    expect(root.name).toBe("testsuites");
    expect(root.attributes).toMatchObject({ tests: "4", failures: "1", errors: "1", skipped: "1", time: "1.500" });
    const suites = findAll(root, "testsuite");
    expect(suites).toHaveLength(1);
    expect(suites[0]!.attributes).toMatchObject({ name: `Smoke <tests> & "quotes" 'too'`, id: "run_1", tests: "4", timestamp: "2026-11-27T20:00:00.000Z" });
    const props = Object.fromEntries(findAll(root, "property").map((p) => [p.attributes.name, p.attributes.value]));
    expect(props).toEqual({ run: "run_1", collection: "col_1", status: "failed", environment: "staging", origin: "cli" });
    const cases = findAll(root, "testcase");
    expect(cases.map((c) => [c.attributes.name, c.attributes.time])).toEqual([
      ["1. tools/call echo", "0.012"],
      ["2. add <1 & 2>", "1.234"],
      ["3. resources/read {{uri}}", "0.000"],
      ["4. prompts/get simple", "0.000"],
    ]);
    expect(cases.every((c) => c.attributes.classname === `Smoke <tests> & "quotes" 'too'`)).toBe(true);
    expect(cases[0]!.children).toEqual([]);
  });

  it("lists the failed assertions, naming the path, in a <failure>", () => {
    const [failure] = findAll(root, "failure");
    expect(failure!.attributes.message).toBe("[json] /structuredContent/total: expected 3, got 4; [duration] duration: expected ≤ 1000 ms, took 1234 ms");
    expect(failure!.text).toBe("[json] /structuredContent/total: expected 3, got 4\n[duration] duration: expected ≤ 1000 ms, took 1234 ms");
    expect(findAll(root, "failure")).toHaveLength(1);
  });

  it("reports an errored step as <error> and a step not run as <skipped/>", () => {
    const cases = findAll(root, "testcase");
    expect(cases[2]!.children.map((c) => c.name)).toEqual(["error"]);
    expect(cases[2]!.children[0]!.attributes.message).toBe('{{steps.9#/x}}: step 9 has not run before this one "quoted"');
    expect(cases[3]!.children.map((c) => c.name)).toEqual(["skipped"]);
  });

  it("escapes <&\"' in text and attributes", () => {
    expect(escapeXml(`<a href="x">Tom & 'Jerry'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;");
    expect(xml).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;|#\d+;)/);
    expect(xml).toContain("add &lt;1 &amp; 2&gt;");
  });

  it("replaces characters XML cannot carry", () => {
    expect(escapeXml("a\u0000b\u001bc\uD800")).toBe("a\uFFFDb\uFFFDc\uFFFD");
    expect(() => parseXml(toJUnit(sampleRun({ collectionName: "bell\u0007" })))).not.toThrow();
  });

  it("round-trips any name and failure message through a strict parser (property)", () => {
    const text = fc.string({ unit: "binary", maxLength: 30 });
    fc.assert(
      fc.property(text, text, (name, message) => {
        const run = sampleRun({ collectionName: name, steps: [step({ status: "failed", label: message, assertions: [{ kind: "json", passed: false, message }] })] });
        const parsed = parseXml(toJUnit(run));
        const clean = (s: string) => s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
        expect(findAll(parsed, "testsuite")[0]!.attributes.name).toBe(clean(name));
        expect(findAll(parsed, "failure")[0]!.attributes.message).toBe(`[json] ${clean(message)}`);
        expect(findAll(parsed, "testcase")[0]!.attributes.name).toBe(`1. ${clean(message)}`);
      }),
    );
  });

  it("the reader itself rejects what is not well-formed", () => {
    for (const bad of ["<a>x & y</a>", "<a b=c/>", "<a><b></a></b>", '<a b="<"/>', "<a>&nope;</a>", "<a/><b/>", '<a x="1" x="2"/>']) {
      expect(() => parseXml(bad), bad).toThrow();
    }
  });
});
