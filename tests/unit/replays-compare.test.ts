import { describe, expect, it } from "vitest";
import { compareOutcomes } from "@/lib/domains/replays/compare";
import { toReplayJUnit } from "@/lib/domains/replays/junit";
import type { ReplayDto } from "@/lib/domains/replays";
import { StartReplaySchema } from "@/lib/domains/replays/schemas";
import { findAll, parseXml } from "../support/xml";

const ok = (result: unknown) => ({ status: "ok" as const, isError: false, result, error: null });
const rpcError = (code: number, message: string) => ({ status: "error" as const, isError: false, result: null, error: { kind: "protocol" as const, code, message } });
const timedOut = { status: "timeout" as const, isError: false, result: null, error: { kind: "timeout" as const, message: "Request timed out" } };

describe("a replayed answer against the recorded one", () => {
  it("is the same when only ignored paths or the server's identity differ", () => {
    const before = ok({ content: [{ type: "text", text: "a" }], _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } } });
    const after = ok({ content: [{ type: "text", text: "b" }], _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "2" } } });
    expect(compareOutcomes(before, after, [])).toEqual({ status: "different", diff: [{ path: "/result/content/0/text", expected: "a", actual: "b", change: "changed" }], error: null });
    expect(compareOutcomes(before, after, ["/result/content/*/text"]).status).toBe("same");
    // A recording from an older era has no identity at all; other `_meta` keys are compared.
    expect(compareOutcomes(ok({ content: [] }), ok({ content: [], _meta: { "io.modelcontextprotocol/serverInfo": { name: "s" } } }), []).status).toBe("same");
    expect(compareOutcomes(ok({ content: [] }), ok({ content: [], _meta: { "io.modelcontextprotocol/serverInfo": {}, trace: "t" } }), []).diff).toEqual([{ path: "/result/_meta", actual: { trace: "t" }, change: "added" }]);
  });

  it("calls a result that became a JSON-RPC error different, and a call with no answer an error", () => {
    const compared = compareOutcomes(ok({ content: [] }), rpcError(-32603, "gone"), []);
    expect(compared.status).toBe("different");
    expect(compared.diff?.map((d) => [d.path, d.change])).toEqual([
      ["/result", "removed"],
      ["/error", "added"],
    ]);
    expect(compareOutcomes(rpcError(-32602, "bad"), rpcError(-32602, "bad"), []).status).toBe("same");
    expect(compareOutcomes(ok({}), timedOut, [])).toMatchObject({ status: "error", error: expect.stringMatching(/replayed call got no answer \(timeout/) });
    expect(compareOutcomes(timedOut, ok({}), [])).toMatchObject({ status: "error", error: expect.stringMatching(/recorded call got no answer/) });
    // An isError result is the server's answer, compared like any result.
    expect(compareOutcomes({ ...ok({ isError: true, content: [] }), status: "error", isError: true }, ok({ content: [] }), []).diff).toEqual([{ path: "/result/isError", expected: true, change: "removed" }]);
  });

  it("refuses ignore paths that are not JSON pointers, and a body with no selection or two", () => {
    const base = { serverId: "s", callIds: ["c"] };
    expect(StartReplaySchema.safeParse({ ...base, ignore: ["/a/~0b/~1c/*"] }).success).toBe(true);
    for (const bad of ["a/b", "", "/a~2", "/a~"]) expect(StartReplaySchema.safeParse({ ...base, ignore: [bad] }).success, bad).toBe(false);
    expect(StartReplaySchema.safeParse({ serverId: "s" }).success).toBe(false);
    expect(StartReplaySchema.safeParse({ ...base, mockId: "m" }).success).toBe(false);
  });
});

describe("a replay as JUnit", () => {
  it("has a failure per different call naming its paths, an error per error, hostile names escaped", () => {
    const item = { method: "tools/call" as const, replayCallId: "r", durationMs: 12, diff: null, error: null };
    const replay: ReplayDto = {
      id: "rp1",
      status: "interrupted",
      serverId: "s",
      serverName: 'v2 <"&">',
      source: { callIds: ["a", "b", "c", "d"] },
      ignore: [],
      total: 4,
      same: 1,
      different: 1,
      errors: 1,
      startedBy: null,
      startedAt: "2026-12-03T00:00:00.000Z",
      finishedAt: "2026-12-03T00:00:01.000Z",
      items: [
        { ...item, index: 0, callId: "a", name: "same]]>", status: "same" },
        { ...item, index: 1, callId: "b", name: "greet", status: "different", diff: [{ path: "/result/content/1", actual: { text: "</testcase>\u0001" }, change: "added" }] },
        { ...item, index: 2, callId: "c", name: "slow", status: "error", error: "The replayed call got no answer (timeout)" },
        { ...item, index: 3, callId: "d", name: "later", status: "pending", replayCallId: null },
      ],
    };
    const suite = findAll(parseXml(toReplayJUnit(replay)), "testsuite")[0]!;
    expect(suite.attributes).toMatchObject({ name: 'replay on v2 <"&">', tests: "4", failures: "1", errors: "1", skipped: "1" });
    const failure = findAll(suite, "failure")[0]!;
    expect(failure.attributes.message).toBe("1 difference: /result/content/1");
    expect(failure.text).toContain("</testcase>");
    expect(findAll(suite, "error")[0]!.attributes.message).toMatch(/timeout/);
  });
});
