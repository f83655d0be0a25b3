import { describe, expect, it } from "vitest";
import { callBodyOf, replayOf } from "@/components/sessions/replay";
import { CALL_METHODS } from "@/lib/domains/calls";
import { CALL_REQUEST_METHODS, type TrafficMessageDto } from "@/lib/domains/traffic";

const message = (over: Partial<TrafficMessageDto>): TrafficMessageDto => ({
  id: 1,
  sessionId: "s",
  direction: "out",
  kind: "request",
  method: "tools/call",
  rpcId: "3",
  size: 10,
  durationMs: null,
  body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { message: "hi" }, _meta: { progressToken: 3 } } }),
  truncated: false,
  at: new Date(0).toISOString(),
  callId: "c1",
  ...over,
});

describe("traffic replay", () => {
  it("links the same methods lib/domains/calls records", () => {
    expect([...CALL_REQUEST_METHODS]).toEqual([...CALL_METHODS]);
  });

  it("sends a call request's params again, without its _meta", () => {
    expect(replayOf(message({}))).toEqual({ request: { method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } } });
  });

  it("says why other messages cannot be sent again", () => {
    expect(replayOf(message({ kind: "response" }))).toEqual({ reason: expect.stringMatching(/^a response is not a request/) });
    expect(replayOf(message({ kind: "error" }))).toEqual({ reason: expect.stringMatching(/^an error is not a request/) });
    expect(replayOf(message({ direction: "in", method: "sampling/createMessage" }))).toEqual({ reason: expect.stringMatching(/request from the server/) });
    expect(replayOf(message({ method: "tools/list" }))).toEqual({ reason: expect.stringMatching(/^tools\/list is not recorded as a call/) });
    expect(replayOf(message({ truncated: true }))).toEqual({ reason: expect.stringMatching(/cut/) });
  });

  it("builds the call API body, with rerunOf when the message had a call", () => {
    expect(callBodyOf({ method: "tools/call", params: { name: "echo", arguments: { a: 1 } } }, "c1")).toEqual({ method: "tools/call", body: { name: "echo", arguments: { a: 1 }, rerunOf: "c1" } });
    expect(callBodyOf({ method: "resources/read", params: { uri: "demo://x" } }, null)).toEqual({ method: "resources/read", body: { uri: "demo://x" } });
    expect(callBodyOf({ method: "prompts/get", params: { name: "p", arguments: { n: 1 } } }, null)).toEqual({ error: "prompts/get arguments are strings" });
    expect(callBodyOf({ method: "tools/call", params: { arguments: {} } }, null)).toEqual({ error: "tools/call needs params.name, a string" });
    expect(callBodyOf({ method: "tools/call", params: { name: "echo", arguments: [1] } }, null)).toEqual({ error: "params.arguments must be an object" });
  });
});
