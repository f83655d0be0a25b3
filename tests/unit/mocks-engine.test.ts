import { describe, expect, it } from "vitest";
import { differences, findAnswer, maskedTextMatches, ignoredPaths, latencyOf, parsePointer, pointersProblem } from "@/lib/domains/mocks/engine";
import { CreateMockSchema, MockFileSchema } from "@/lib/domains/mocks/schemas";
import { MASKED, type MockRecording } from "@/lib/domains/mocks";
import { REDACTED } from "@/lib/core/redaction";
import { parseCommand, CliError } from "../../cli/src/args";

const rec = (name: string, args: Record<string, unknown> | null, text: string, method: MockRecording["method"] = "tools/call"): MockRecording => ({
  method,
  name,
  arguments: args,
  result: { content: [{ type: "text", text }] },
  durationMs: 120,
});

const file = {
  tools: [{ name: "echo" }, { name: "add" }, { name: "listed-only" }],
  prompts: [{ name: "simple" }],
  recordings: [
    rec("echo", { message: "hi" }, "Echo: hi"),
    rec("echo", { message: "ho", at: "2026-01-01" }, "Echo: ho"),
    rec("add", { a: 1, b: 2 }, "3"),
    rec("login", { user: "ann", password: "[redacted]" }, "welcome"),
    rec("fetch", { url: "https://x.test/?key=[redacted]&q=1" }, "fetched"),
    rec("docs://readme", null, "README", "resources/read"),
    rec("simple", { topic: "cats" }, "prompt", "prompts/get"),
  ],
};
const text = (answer: ReturnType<typeof findAnswer>) => ("recording" in answer ? (answer.recording.result!.content as { text: string }[])[0]!.text : answer.error.message);

describe("JSON pointers (RFC 6901)", () => {
  it("parses tokens with their escapes and refuses what is not a pointer", () => {
    expect(parsePointer("")).toEqual([]);
    expect(parsePointer("/a~1b/c~0d/0")).toEqual(["a/b", "c~d", "0"]);
    expect(parsePointer("a")).toBeNull();
    expect(parsePointer("/a~2")).toBeNull();
    expect(parsePointer("/a~")).toBeNull();
    expect(pointersProblem(["/ok", "bad"])).toMatchObject({ index: 1 });
    expect(pointersProblem(["/ok", ""])).toBeNull();
  });

  it("refuses bad pointers and odd names in the API's body", () => {
    expect(CreateMockSchema.safeParse({ name: "m", callIds: ["c"], ignore: ["nope"] }).success).toBe(false);
    expect(CreateMockSchema.safeParse({ name: "a/b", callIds: ["c"] }).success).toBe(false);
    expect(CreateMockSchema.safeParse({ name: "..", callIds: ["c"] }).success).toBe(false);
    expect(CreateMockSchema.safeParse({ name: "m", callIds: ["c"], runId: "r" }).success).toBe(false);
    expect(CreateMockSchema.parse({ name: "m.v1", callIds: ["c"] })).toMatchObject({ match: "exact", ignore: [], latency: false });
  });
});

describe("matching", () => {
  it("answers an exact match and refuses other arguments, naming the tool and listing its recordings", () => {
    expect(text(findAnswer(file, { match: "exact", ignore: [] }, { method: "tools/call", name: "echo", arguments: { message: "hi" } }))).toBe("Echo: hi");
    const miss = findAnswer(file, { match: "exact", ignore: [] }, { method: "tools/call", name: "echo", arguments: { message: "hey" } });
    expect(miss).toMatchObject({ error: { code: -32602, data: { name: "echo", recorded: [{ index: 0, arguments: { message: "hi" } }, { index: 1 }] } } });
    expect(text(miss)).toContain('tool "echo"');
  });

  it("names an unknown tool, a listed one without recordings, and an unrecorded resource", () => {
    expect(text(findAnswer(file, { match: "closest", ignore: [] }, { method: "tools/call", name: "nope", arguments: {} }))).toMatch(/Unknown tool "nope"/);
    expect(text(findAnswer(file, { match: "closest", ignore: [] }, { method: "tools/call", name: "listed-only", arguments: {} }))).toMatch(/lists it but holds no recording/);
    expect(findAnswer(file, { match: "exact", ignore: [] }, { method: "resources/read", name: "docs://other", arguments: null })).toMatchObject({ error: { code: -32002 } });
    expect(text(findAnswer(file, { match: "exact", ignore: [] }, { method: "resources/read", name: "docs://readme", arguments: null }))).toBe("README");
  });

  it("ignores what the pointers name", () => {
    const settings = { match: "exact" as const, ignore: ["/at"] };
    expect(text(findAnswer(file, settings, { method: "tools/call", name: "echo", arguments: { message: "ho", at: "2027-05-05" } }))).toBe("Echo: ho");
    expect(ignoredPaths(["/a~1b"]).has("/a~1b")).toBe(true);
    expect(differences({ a: { t: 1, x: 2 } }, { a: { t: 9, x: 2 } }, ignoredPaths(["/a/t"]))).toBe(0);
    expect(differences([1, 2, 3], [1, 5, 3], ignoredPaths(["/1"]))).toBe(0);
  });

  it("matches a masked value with any value, also inside text, but not a missing one", () => {
    expect(MASKED).toBe(REDACTED);
    const exact = { match: "exact" as const, ignore: [] };
    expect(text(findAnswer(file, exact, { method: "tools/call", name: "login", arguments: { user: "ann", password: "hunter2" } }))).toBe("welcome");
    expect("error" in findAnswer(file, exact, { method: "tools/call", name: "login", arguments: { user: "ann" } })).toBe(true);
    expect(text(findAnswer(file, exact, { method: "tools/call", name: "fetch", arguments: { url: "https://x.test/?key=s3cr3t&q=1" } }))).toBe("fetched");
    expect("error" in findAnswer(file, exact, { method: "tools/call", name: "fetch", arguments: { url: "https://x.test/?key=s3cr3t&q=2" } })).toBe(true);
    // Regex characters in recorded text are literal.
    expect(differences("a.c[redacted]", "abcX")).toBe(1);
  });

  it("matches text around masks in order, without backtracking on hostile text", () => {
    expect(maskedTextMatches(`a${MASKED}b${MASKED}c`, "aXbYc")).toBe(true);
    expect(maskedTextMatches(`a${MASKED}b${MASKED}c`, "abc")).toBe(true);
    expect(maskedTextMatches(`a${MASKED}b${MASKED}c`, "acb")).toBe(false);
    // The prefix and suffix may not overlap ("ab" is not "ab" + "b").
    expect(maskedTextMatches(`ab${MASKED}b`, "ab")).toBe(false);
    expect(maskedTextMatches(`${MASKED}x${MASKED}x${MASKED}`, "..x..x..")).toBe(true);
    // Forty masks against 100 000 characters that almost match: a regular expression with as many
    // wildcards backtracks for hours here; the pieces are found in one pass each.
    const hostile = Array.from({ length: 40 }, () => "a").join(MASKED) + "!";
    expect(maskedTextMatches(hostile, "a".repeat(100_000))).toBe(false);
  });

  it("in closest mode answers with the recording of fewest differing leaves", () => {
    const closest = { match: "closest" as const, ignore: [] };
    const answer = findAnswer(file, closest, { method: "tools/call", name: "echo", arguments: { message: "ho", at: "2030-01-01" } });
    expect(answer).toMatchObject({ exact: false, index: 1 });
    expect(text(findAnswer(file, closest, { method: "tools/call", name: "add", arguments: { a: 5, b: 7 } }))).toBe("3");
    expect(text(findAnswer(file, closest, { method: "prompts/get", name: "simple", arguments: { topic: "dogs" } }))).toBe("prompt");
  });

  it("counts differing leaves, nested and hostile-deep", () => {
    expect(differences({ a: 1, b: [1, 2] }, { a: 1, b: [1, 2] })).toBe(0);
    expect(differences({ a: 1, b: [1, 2] }, { a: 2, b: [1] })).toBe(2);
    expect(differences({ a: { x: 1, y: 2 } }, { a: "flat" })).toBe(2);
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = { d: deep };
    expect(differences(deep, deep)).toBe(0);
  });

  it("waits the recorded duration only when asked, capped", () => {
    expect(latencyOf(rec("x", {}, ""), { latency: false }, 30_000)).toBe(0);
    expect(latencyOf(rec("x", {}, ""), { latency: true }, 30_000)).toBe(120);
    expect(latencyOf({ ...rec("x", {}, ""), durationMs: 99_999 }, { latency: true }, 30_000)).toBe(30_000);
  });
});

describe("the mock file and the CLI", () => {
  it("reads a minimal file with defaults and refuses another format", () => {
    const parsed = MockFileSchema.parse({ format: "switchboard-mock/1", name: "m", serverInfo: { name: "s", version: "1" }, recordings: [{ method: "tools/call", name: "echo", arguments: { a: 1 }, result: {} }] });
    expect(parsed).toMatchObject({ match: "exact", tools: [], recordings: [{ durationMs: null }] });
    expect(MockFileSchema.safeParse({ format: "other", name: "m", serverInfo: { name: "s", version: "1" }, recordings: [] }).success).toBe(false);
  });

  it("parses mock serve over HTTP and stdio, and refuses what is missing or mixed", () => {
    expect(parseCommand(["mock", "serve", "m.json", "--port", "8123"])).toEqual({ command: "mock-serve", file: "m.json", stdio: false, port: 8123, host: "127.0.0.1" });
    expect(parseCommand(["mock", "serve", "m.json", "--stdio"])).toMatchObject({ command: "mock-serve", stdio: true });
    expect(parseCommand(["mock", "serve", "m.json", "-p", "0", "--host", "0.0.0.0"])).toMatchObject({ port: 0, host: "0.0.0.0" });
    for (const argv of [["mock", "serve", "m.json"], ["mock", "run", "m.json"], ["mock", "serve", "m.json", "--stdio", "--port", "1"], ["mock", "serve", "m.json", "--port", "70000"], ["mock", "serve"]]) {
      expect(() => parseCommand(argv)).toThrow(CliError);
    }
  });
});
