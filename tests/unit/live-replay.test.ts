import { describe, expect, it } from "vitest";
import { InMemoryTransport, type JSONRPCMessage } from "@modelcontextprotocol/client";
import { ReplayLog, REPLAY_MAX_EVENTS } from "@/lib/core/events/replay";
import { RecordingTransport, TRAFFIC_BODY_CAP, type TrafficRecord } from "@/lib/mcp/recording-transport";

describe("replay log", () => {
  it("replays what followed an id, per workspace, in order", () => {
    const log = new ReplayLog<string>();
    const a1 = log.append("a", "a1");
    log.append("b", "b1");
    log.append("a", "a2");
    log.append("a", "a3");
    const replay = log.since("a", a1.id);
    expect(replay.kind === "events" && replay.events.map((e) => e.event)).toEqual(["a2", "a3"]);
    const a3 = log.append("a", "a4");
    expect(log.since("a", a3.id)).toEqual({ kind: "events", events: [] });
  });

  it("answers reset for another epoch, a future id, garbage, or an id trimmed away", () => {
    const log = new ReplayLog<number>();
    const first = log.append("a", 0);
    expect(log.since("a", "zzz-1").kind).toBe("reset");
    expect(log.since("a", `${log.epoch}-999`).kind).toBe("reset");
    expect(log.since("a", "nonsense").kind).toBe("reset");
    for (let i = 1; i <= REPLAY_MAX_EVENTS + 1; i++) log.append("a", i);
    expect(log.since("a", first.id).kind).toBe("reset");
    const recent = log.since("a", `${log.epoch}-${REPLAY_MAX_EVENTS}`);
    expect(recent.kind === "events" && recent.events.map((e) => e.event)).toEqual([REPLAY_MAX_EVENTS, REPLAY_MAX_EVENTS + 1].map((n) => n));
  });
});

describe("recording transport", () => {
  async function pair(secrets: string[] = []) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const records: TrafficRecord[] = [];
    const recording = new RecordingTransport(clientSide, { sink: (r) => records.push(r), secrets });
    const received: JSONRPCMessage[] = [];
    recording.onmessage = (m) => received.push(m);
    const serverGot: JSONRPCMessage[] = [];
    serverSide.onmessage = (m) => serverGot.push(m);
    await Promise.all([recording.start(), serverSide.start()]);
    return { recording, serverSide, records, received, serverGot };
  }

  it("tags directions, pairs responses with requests both ways and measures the duration", async () => {
    const { recording, serverSide, records, received } = await pair();
    await recording.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo" } });
    await serverSide.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hi" } });
    await serverSide.send({ jsonrpc: "2.0", id: 1, result: { content: [] } });
    await serverSide.send({ jsonrpc: "2.0", id: "s1", method: "roots/list" });
    await recording.send({ jsonrpc: "2.0", id: "s1", error: { code: -1, message: "no" } });
    expect(received).toHaveLength(3);
    expect(records.map((r) => [r.direction, r.kind, r.method, r.rpcId])).toEqual([
      ["out", "request", "tools/call", "1"],
      ["in", "notification", "notifications/message", null],
      ["in", "response", "tools/call", "1"],
      ["in", "request", "roots/list", '"s1"'],
      ["out", "error", "roots/list", '"s1"'],
    ]);
    expect(records[2]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(records[0]!.durationMs).toBeNull();
  });

  it("scrubs known secret values and credential-named fields, and cuts huge bodies", async () => {
    const { recording, records } = await pair(["top-secret-value"]);
    await recording.send({ jsonrpc: "2.0", id: 2, method: "x", params: { text: "the top-secret-value!", nested: { authorization: "Bearer abc", progressToken: 7 } } });
    expect(records[0]!.body).not.toContain("top-secret-value");
    expect(records[0]!.body).not.toContain("Bearer abc");
    expect(JSON.parse(records[0]!.body).params).toEqual({ text: "the [redacted]!", nested: { authorization: "[redacted]", progressToken: 7 } });
    await recording.send({ jsonrpc: "2.0", id: 3, method: "big", params: { text: "x".repeat(TRAFFIC_BODY_CAP + 10) } });
    expect(records[1]!.truncated).toBe(true);
    expect(records[1]!.body.length).toBe(TRAFFIC_BODY_CAP);
    expect(records[1]!.size).toBeGreaterThan(TRAFFIC_BODY_CAP);
  });

  it("keeps a stdio-shaped transport stdio-shaped and forwards the session id", async () => {
    const [a] = InMemoryTransport.createLinkedPair();
    const plain = new RecordingTransport(a, { sink: () => undefined });
    expect("pid" in plain).toBe(false);
    const stdioLike = Object.assign(InMemoryTransport.createLinkedPair()[0], { pid: 42, stderr: null });
    const wrapped = new RecordingTransport(stdioLike, { sink: () => undefined });
    expect("pid" in wrapped && "stderr" in wrapped).toBe(true);
    expect((wrapped as unknown as { pid: number }).pid).toBe(42);
  });
});
