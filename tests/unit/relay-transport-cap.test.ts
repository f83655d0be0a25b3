/**
 * The console's end of the size cap, on a RelayTransport over a stand-in link: a request over the
 * link's cap is answered at once with a JSON-RPC error and never sent; the agent's `too_large`
 * error for a request fails that request, and only that one.
 */
import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { relayHub } from "@/lib/relay/hub";
import type { ConsoleFrame } from "@/lib/relay/protocol";
import { RELAY_ERROR_CODE, RelayTransport } from "@/lib/relay/transport";

async function openTransport(maxMessageBytes: number) {
  const sent: ConsoleFrame[] = [];
  const agentId = `agent-${crypto.randomUUID()}`;
  relayHub().links.set(agentId, {
    agentId,
    workspaceId: "ws",
    servers: new Map([["big", "srv-big"]]),
    maxMessageBytes,
    send: (frame) => (sent.push(frame), true),
    bufferedAmount: () => 0,
    close: () => undefined,
  });
  const transport = new RelayTransport({ agentId, serverName: "big" });
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (m) => void received.push(m);
  const started = transport.start();
  relayHub().sessions.get(transport.relaySessionId)!.deliver({ type: "opened", pid: 1 });
  await started;
  const answered = (id: number) => new Promise<void>((resolve) => {
    const check = () => (received.some((m) => (m as { id?: unknown }).id === id) ? resolve() : setImmediate(check));
    check();
  });
  return { transport, sent, received, answered };
}

const call = (id: number, text: string): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text } } });

describe("the relay transport's size cap", () => {
  it("answers a request over the link's cap itself, naming its size and the cap, and sends nothing", async () => {
    const { transport, sent, received, answered } = await openTransport(1024 * 1024);
    await transport.send(call(1, "x".repeat(1024 * 1024)));
    await answered(1);
    expect(sent.filter((f) => f.type === "message")).toEqual([]);
    expect(received).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: RELAY_ERROR_CODE, message: "The request (tools/call) is 1.1 MiB; the relay carries at most 1 MiB per message", data: { relay: "too_large" } } }]);
    await transport.send(call(2, "small"));
    expect(sent.filter((f) => f.type === "message")).toHaveLength(1);
    await transport.close();
  });

  it("fails the request an agent's too_large error names, and no other", async () => {
    const { transport, received, answered } = await openTransport(1024 * 1024);
    await transport.send(call(1, "a"));
    await transport.send(call(2, "b"));
    const endpoint = relayHub().sessions.get(transport.relaySessionId)!;
    const message = "The server's answer is 17.3 MiB; the relay carries at most 16 MiB per message";
    endpoint.deliver({ type: "error", code: "too_large", message, request: 2 });
    await answered(2);
    expect(received).toEqual([{ jsonrpc: "2.0", id: 2, error: { code: RELAY_ERROR_CODE, message, data: { relay: "too_large" } } }]);
    endpoint.deliver({ type: "message", message: { jsonrpc: "2.0", id: 1, result: {} } });
    expect(received.at(-1)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    await transport.close();
  });
});
