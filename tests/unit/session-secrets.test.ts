import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { RecordingTransport, TRAFFIC_BODY_CAP, type TrafficRecord } from "@/lib/mcp/recording-transport";
import { secretValues } from "@/lib/core/redaction";
import { holdSessionSecrets, sessionHeldSecrets } from "@/lib/core/redaction/server";

const SECRET = "env-secret-4b1e9a";

/** A recording transport over a stub, its secrets asked as lib/domains/sessions asks them. */
function recorded(sessionId: string) {
  const records: TrafficRecord[] = [];
  const inner = { start: async () => {}, send: async () => {}, close: async () => {} } as unknown as Transport;
  const known = secretValues(["stored-header-value"]);
  const transport = new RecordingTransport(inner, { sink: (r) => records.push(r), moreSecrets: () => sessionHeldSecrets({ sessionId, known }) });
  return { transport, inner, records };
}

describe("traffic: secret values a call hands in", () => {
  it("are masked in the session's frames both ways, from the moment they are held", async () => {
    const { transport, inner, records } = recorded("session-a");
    const request = (name: string) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: { message: `key=${SECRET}` } } }) as JSONRPCMessage;
    await transport.send(request(`n-${SECRET}`));
    expect(records[0]!.body).toContain(SECRET);

    holdSessionSecrets({ sessionId: "session-a", secrets: secretValues([SECRET]) });
    await transport.send(request(`n-${SECRET}`));
    inner.onmessage?.({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: `Unknown tool: n-${SECRET}` } } as JSONRPCMessage);
    inner.onmessage?.({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: `later: ${SECRET}` } } as JSONRPCMessage);
    for (const record of records.slice(1)) expect(record.body).not.toContain(SECRET);
    expect(JSON.parse(records[1]!.body).params).toEqual({ name: "n-[redacted]", arguments: { message: "key=[redacted]" } });
    expect(records[2]!.body).toContain("Unknown tool: n-[redacted]");
  });

  it("stay with their session, keep the server's stored values, and skip values too short to mask", async () => {
    holdSessionSecrets({ sessionId: "session-b", secrets: secretValues([SECRET, "ab1"]) });
    const other = recorded("session-c");
    await other.transport.send({ jsonrpc: "2.0", method: "notifications/message", params: { data: SECRET } } as JSONRPCMessage);
    expect(other.records[0]!.body).toContain(SECRET);

    const { transport, records } = recorded("session-b");
    await transport.send({ jsonrpc: "2.0", method: "notifications/message", params: { data: `${SECRET} stored-header-value ab1` } } as JSONRPCMessage);
    expect(JSON.parse(records[0]!.body).params.data).toBe("[redacted] [redacted] ab1");
  });

  it("answers the same set while nothing changes (the transport merges once per change)", () => {
    const known = secretValues(["stored-header-value"]);
    holdSessionSecrets({ sessionId: "session-d", secrets: secretValues([SECRET]) });
    const first = sessionHeldSecrets({ sessionId: "session-d", known });
    expect(sessionHeldSecrets({ sessionId: "session-d", known })).toBe(first);
    holdSessionSecrets({ sessionId: "session-d", secrets: secretValues([SECRET]) });
    expect(sessionHeldSecrets({ sessionId: "session-d", known })).toBe(first);
    holdSessionSecrets({ sessionId: "session-d", secrets: secretValues(["another-secret-77"]) });
    expect(sessionHeldSecrets({ sessionId: "session-d", known }).values).toContain("another-secret-77");
    expect(sessionHeldSecrets({ sessionId: "session-none", known })).toBe(known);
  });

  it("masks a secret before a long body is cut", async () => {
    holdSessionSecrets({ sessionId: "session-e", secrets: secretValues([SECRET]) });
    const { transport, records } = recorded("session-e");
    const padding = "x".repeat(TRAFFIC_BODY_CAP - 40);
    await transport.send({ jsonrpc: "2.0", method: "notifications/message", params: { data: `${padding}${SECRET}${SECRET}` } } as JSONRPCMessage);
    expect(records[0]!.truncated).toBe(true);
    expect(records[0]!.body).not.toContain(SECRET.slice(0, 8));
  });
});
