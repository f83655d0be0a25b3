import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

/** A host that speaks only the legacy HTTP+SSE transport: the TS SDK 1.x client with SSEClientTransport. */
async function sseHost(url: string, token: string, name: string) {
  // requestInit's headers ride on the event stream's GET and on every POST.
  const transport = new SSEClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name, version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler((await import("@modelcontextprotocol/sdk/types.js")).ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
  await client.connect(transport);
  return client;
}

describe("the gateway serves hosts that speak only legacy HTTP+SSE, on both endpoints", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let everything: RunningServer;
  let endpoint: string;
  let aggregate: string;
  let token: string;
  const open: Client[] = [];

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    const id = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    endpoint = `${sb.url}${(await api("PUT", `/api/v1/servers/${id}/exposure`, { enabled: true })).body.exposure.path}`;
    aggregate = `${sb.url}/mcp/${owner.workspace.slug}`;
    token = (await api("POST", "/api/v1/tokens", { name: "sse-host", scopes: ["gateway"] })).body.secret;
  });
  afterAll(async () => {
    await Promise.allSettled(open.map((c) => c.close()));
    await sb?.stop();
    await everything?.stop();
  });

  it("a server's endpoint: lists, calls (recorded under the host's name), relays the server's elicitation and refuses a bad call", async () => {
    const client = await sseHost(endpoint, token, "sse-only-host");
    open.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("echo");
    expect((await client.callTool({ name: "echo", arguments: { message: "over sse" } })).content).toEqual([{ type: "text", text: "Echo: over sse" }]);
    await waitFor(async () => (await api("GET", "/api/v1/calls?origin=gateway")).body.items.some((c: any) => c.name === "echo" && c.status === "ok"));
    const call = (await api("GET", "/api/v1/calls?origin=gateway")).body.items.find((c: any) => c.name === "echo");
    expect((await api("GET", `/api/v1/calls/${call.id}`)).body.call.client).toBe("sse-only-host 1.0.0");
    expect(JSON.stringify((await client.callTool({ name: "trigger-elicitation-request", arguments: {} })).content)).toContain("Ada");
    await expect(client.callTool({ name: "get-sum", arguments: { a: "one", b: 2 } })).rejects.toThrow(/-32602|input schema/);
  });

  it("the aggregated endpoint: the same host lists and calls the namespaced tools", async () => {
    const client = await sseHost(aggregate, token, "sse-aggregate-host");
    open.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("everything__echo");
    expect((await client.callTool({ name: "everything__echo", arguments: { message: "all of them" } })).content).toEqual([{ type: "text", text: "Echo: all of them" }]);
  });

  it("checks the token on the stream and on every message", async () => {
    const stream = await fetch(endpoint, { headers: { accept: "text/event-stream" } });
    expect(stream.status).toBe(401);
    expect(stream.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata=/);
    const opened = await fetch(endpoint, { headers: { accept: "text/event-stream", authorization: `Bearer ${token}` } });
    expect(opened.status).toBe(200);
    const reader = opened.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const path = /event: endpoint\ndata: (\S+)/.exec(first)?.[1];
    expect(path).toMatch(/\?sessionId=/);
    const post = await fetch(new URL(path!, endpoint), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
    expect(post.status).toBe(401);
    const other = (await api("POST", "/api/v1/tokens", { name: "other", scopes: ["gateway"] })).body.secret;
    const unknown = await fetch(`${endpoint}?sessionId=nope`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${other}` }, body: "{}" });
    expect(unknown.status).toBe(404);
    await reader.cancel();
  });

  it("holds at most MAX_LEGACY_STREAMS event streams per person: the next is 429 until one closes", async () => {
    const headers = { accept: "text/event-stream", authorization: `Bearer ${token}` };
    const held: Response[] = [];
    // The clients above hold one each.
    for (let i = 0; i < 40; i++) {
      const res = await fetch(endpoint, { headers });
      if (res.status !== 200) {
        expect(res.status).toBe(429);
        expect((await res.json()).error.message).toMatch(/Too many open event streams \(16\)/);
        break;
      }
      held.push(res);
    }
    expect(held.length + open.length).toBe(16);
    await held.pop()!.body!.cancel();
    await waitFor(async () => {
      const res = await fetch(endpoint, { headers });
      if (res.status === 200) held.push(res);
      return res.status === 200;
    });
    await Promise.all(held.map((res) => res.body!.cancel()));
  });

  it("answers a GET that asks for no event stream the same way on both endpoints: 405 with Allow and why", async () => {
    const answers = await Promise.all([endpoint, aggregate].map((url) => fetch(url, { headers: { accept: "application/json", authorization: `Bearer ${token}` } })));
    const bodies = await Promise.all(answers.map((res) => res.json()));
    for (const res of answers) {
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, POST, DELETE");
    }
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[0].error.message).toMatch(/legacy HTTP\+SSE/);
  });
});
