import { Client, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { openConnection } from "@/lib/mcp/server";

/**
 * A server whose last progress notification reaches the client in the same chunk (the same tick)
 * as the response, as happens over stdio and the relay.
 */
class BurstTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly sent: JSONRPCMessage[] = [];
  async start() {}
  async close() {}
  async send(message: JSONRPCMessage) {
    this.sent.push(message);
    if (!("id" in message) || !("method" in message)) return;
    const reply = (m: object) => setTimeout(() => this.onmessage?.({ jsonrpc: "2.0", ...m } as JSONRPCMessage), 0);
    if (message.method === "initialize") {
      reply({ id: message.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "burst", version: "1" } } });
    } else if (message.method === "tools/list") {
      reply({ id: message.id, result: { tools: [{ name: "x", inputSchema: { type: "object" } }] } });
    } else if (message.method === "tools/call") {
      const token = (message.params as { _meta?: { progressToken?: string | number } })._meta?.progressToken;
      const progress = (n: number) => this.onmessage?.({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: n, total: 3 } });
      setTimeout(() => progress(1), 5);
      setTimeout(() => progress(2), 10);
      setTimeout(() => {
        progress(3);
        this.onmessage?.({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "done" }] } });
      }, 15);
    } else {
      reply({ id: message.id, error: { code: -32601, message: "Method not found" } });
    }
  }
}

describe("progress delivery", () => {
  it("the bare SDK loses a progress notification read in the same tick as its response", async () => {
    const client = new Client({ name: "t", version: "0" });
    await client.connect(new BurstTransport());
    const seen: number[] = [];
    await client.callTool({ name: "x", arguments: {} }, { onprogress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2]);
  });

  it("lib/mcp delivers every progress notification, and nothing of its routing reaches the server", async () => {
    const transport = new BurstTransport();
    const conn = await openConnection({ url: "", transport: "auto", headers: {}, timeoutMs: 5000, eraHint: "legacy", createTransport: () => transport });
    const seen: number[] = [];
    const result = await conn.request("tools/call", { name: "x", arguments: {} }, { onProgress: (p) => seen.push(p.progress) });
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(seen).toEqual([1, 2, 3]);
    const call = transport.sent.find((m) => "method" in m && m.method === "tools/call") as { params: { _meta: Record<string, unknown> } };
    expect(Object.keys(call.params._meta)).toEqual(["progressToken"]);
    await conn.close();
  });
});
