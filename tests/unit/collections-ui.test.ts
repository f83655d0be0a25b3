import { describe, expect, it } from "vitest";
import { fromDraft, newDraft, parseValue, toDraft } from "@/components/collections/assertion-draft";
import { stepChange } from "@/components/collections/run-compare";
import { stepFromCall } from "@/components/collections/step-from-call";
import type { Assertion, StepRunDto } from "@/lib/domains/collections";

describe("assertion drafts", () => {
  const kept: Assertion[] = [
    { kind: "status", equals: "isError" },
    { kind: "json", path: "/structuredContent/total", equals: 3 },
    { kind: "json", path: "/content/0/text", contains: "alpha" },
    { kind: "json", path: "/content", contains: { type: "text" } },
    { kind: "json", path: "/content/0/text", matches: "^Echo: \\w+$" },
    { kind: "schema" },
    { kind: "schema", schema: { type: "object", required: ["total"] } },
    { kind: "duration", maxMs: 250 },
    { kind: "snapshot", ignore: ["/meta", "/content/0/id"], expected: { content: [] } },
    { kind: "lint" },
    { kind: "lint", maxTokens: 8000, failOn: "warning" },
  ];

  it.each(kept.map((a) => [a.kind, a] as const))("%s survives the form unchanged", (_, assertion) => {
    expect(fromDraft(toDraft(assertion))).toEqual({ assertion });
  });

  it("reads typed values as JSON when they parse, else as text", () => {
    expect(parseValue("3")).toBe(3);
    expect(parseValue('"3"')).toBe("3");
    expect(parseValue("Echo: alpha")).toBe("Echo: alpha");
    expect(parseValue('{"a":1}')).toEqual({ a: 1 });
  });

  it("names what is wrong instead of saving it", () => {
    expect(fromDraft({ ...newDraft("json"), path: "content/0" })).toEqual({ problem: expect.stringContaining("JSON pointer") });
    expect(fromDraft({ ...newDraft("json"), path: "/a", op: "matches", value: "(" })).toEqual({ problem: expect.stringContaining("not a valid regular expression") });
    expect(fromDraft({ ...newDraft("duration"), maxMs: "-1" })).toEqual({ problem: expect.stringContaining("milliseconds") });
    expect(fromDraft({ ...newDraft("schema"), schema: "[1]" })).toEqual({ problem: "The schema must be a JSON object" });
    expect(fromDraft({ ...newDraft("snapshot"), ignore: "/ok\nbad" })).toEqual({ problem: expect.stringContaining("bad") });
    expect(fromDraft({ ...newDraft("lint"), maxTokens: "1.5" })).toEqual({ problem: expect.stringContaining("whole number of tokens") });
  });
});

describe("a step from a call", () => {
  const base = { serverId: "srv", status: "ok" as const, isError: false };

  it("takes the tool, its arguments and expects the status the call had", () => {
    expect(stepFromCall({ ...base, method: "tools/call", name: "echo", params: { name: "echo", arguments: { message: "hi" } } })).toEqual({
      serverId: "srv",
      method: "tools/call",
      name: "echo",
      arguments: { message: "hi" },
      assert: [{ kind: "status", equals: "ok" }],
    });
    expect(stepFromCall({ ...base, isError: true, method: "tools/call", name: "boom", params: { name: "boom" } }).assert).toEqual([{ kind: "status", equals: "isError" }]);
    expect(stepFromCall({ ...base, status: "timeout", method: "prompts/get", name: "p", params: {} }).assert).toEqual([{ kind: "status", equals: "error" }]);
  });

  it("reads a resource by its uri, without arguments", () => {
    const step = stepFromCall({ ...base, method: "resources/read", name: "demo://a", params: { uri: "demo://a" } });
    expect(step).toMatchObject({ method: "resources/read", uri: "demo://a" });
    expect(step).not.toHaveProperty("name");
    expect(step).not.toHaveProperty("arguments");
  });
});

describe("what changed between two runs' step", () => {
  const step = (status: StepRunDto["status"], failing: string[] = []): StepRunDto => ({
    index: 0,
    stepId: "s1",
    label: "echo",
    callId: null,
    status,
    durationMs: 1,
    error: null,
    assertions: failing.map((message) => ({ kind: "json", passed: false, message })),
  });

  it("says the status change and which failures came or went", () => {
    expect(stepChange(step("failed", ["/a: expected 1, got 2"]), step("passed"))).toBe("failed → passed · now passing: /a: expected 1, got 2");
    expect(stepChange(step("passed"), step("failed", ["/b: bad"]))).toBe("passed → failed · now failing: /b: bad");
    expect(stepChange(step("passed"), step("passed"))).toBe("no change");
    expect(stepChange(undefined, step("passed"))).toBe("only in B");
  });
});
