import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

/** An MCP host (the official SDK client) connected to a gateway endpoint with a bearer token. */
async function host(url: string, token: string, opts: { name?: string; auto?: boolean; onElicit?: (params: any) => Record<string, string> } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client(
    { name: opts.name ?? "gateway-test", version: "1.2.3" },
    { capabilities: opts.onElicit ? { elicitation: { form: {} } } : {}, ...(opts.auto ? { versionNegotiation: { mode: "auto" as const } } : {}) },
  );
  if (opts.onElicit) client.setRequestHandler("elicitation/create", async (request) => ({ action: "accept", content: opts.onElicit!(request.params) }));
  await client.connect(transport);
  return { client, transport };
}

describe("the gateway: a workspace server as an MCP endpoint for other hosts (server-everything over Streamable HTTP)", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let everything: RunningServer;
  let serverId: string;
  let endpoint: string;
  let gatewayToken: string;
  const open: Client[] = [];

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    serverId = (await api("POST", "/api/v1/servers", { name: "every thing", url: everything.url })).body.server.id;
    const exposure = await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true });
    expect(exposure.status).toBe(200);
    expect(exposure.body.exposure.path).toBe(`/mcp/${owner.workspace.slug}/every%20thing`);
    endpoint = `${sb.url}${exposure.body.exposure.path}`;
    const token = await api("POST", "/api/v1/tokens", { name: "claude", scopes: ["gateway"] });
    expect(token.status).toBe(201);
    expect(token.body.token.scopes).toEqual(["gateway"]);
    gatewayToken = token.body.secret;
  });
  afterAll(async () => {
    await Promise.allSettled(open.map((c) => c.close()));
    await sb?.stop();
    await everything?.stop();
  });

  const connect = async (opts: Parameters<typeof host>[2] = {}, token = gatewayToken) => {
    const h = await host(endpoint, token, opts);
    open.push(h.client);
    return h;
  };

  it("asks for a token the way MCP hosts expect: 401 naming the resource metadata", async () => {
    const res = await fetch(endpoint, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(res.status).toBe(401);
    const challenge = res.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(`resource_metadata="${sb.url}/.well-known/oauth-protected-resource/mcp/`);
  });

  it("refuses tokens without the gateway scope, and gateway-only tokens on the API", async () => {
    const full = (await api("POST", "/api/v1/tokens", { name: "api only" })).body.secret as string;
    await expect(host(endpoint, full)).rejects.toThrow();
    const res = await fetch(endpoint, { method: "POST", headers: { authorization: `Bearer ${full}`, "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    const apiWithGatewayToken = await fetch(`${sb.url}/api/v1/servers`, { headers: { authorization: `Bearer ${gatewayToken}` } });
    expect(apiWithGatewayToken.status).toBe(403);
    expect((await apiWithGatewayToken.json()).error.message).toMatch(/gateway/);
  });

  it("answers 404 for a server that is not offered", async () => {
    const other = (await api("POST", "/api/v1/servers", { name: "hidden", url: everything.url })).body.server.id;
    const path = (await api("GET", `/api/v1/servers/${other}/exposure`)).body.exposure.path;
    await expect(host(`${sb.url}${path}`, gatewayToken)).rejects.toThrow(/404|not offered|No server/);
  });

  it("answers a host whose server is down with an error, and ends that session", async () => {
    const down = (await api("POST", "/api/v1/servers", { name: "down", url: "http://127.0.0.1:1/mcp", transport: "streamable-http" })).body.server.id;
    const { path } = (await api("PUT", `/api/v1/servers/${down}/exposure`, { enabled: true })).body.exposure;
    await expect(host(`${sb.url}${path}`, gatewayToken, { name: "early-host" })).rejects.toThrow(/could not be reached/);
    await waitFor(async () => {
      const items = (await api("GET", `/api/v1/servers/${down}/gateway/clients`)).body.items;
      return items.length === 1 && items[0].endReason === "upstream";
    });
  });

  it("relays list and call, and records each call with origin gateway, the host and the user", async () => {
    const { client } = await connect();
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain("echo");
    const result = await client.callTool({ name: "echo", arguments: { message: "through the gateway" } });
    expect(result.content).toEqual([{ type: "text", text: "Echo: through the gateway" }]);
    // The answer reaches the host first; its completion is written right after.
    let call: any;
    await waitFor(async () => {
      call = (await api("GET", "/api/v1/calls?origin=gateway")).body.items.find((c: any) => c.name === "echo");
      return call?.status === "ok";
    });
    expect(call).toMatchObject({ origin: "gateway", status: "ok", serverId, userName: "Ada Owner", method: "tools/call" });
    const full = (await api("GET", `/api/v1/calls/${call.id}`)).body.call;
    expect(full.client).toBe("gateway-test 1.2.3");
    expect(full.params).toEqual({ name: "echo", arguments: { message: "through the gateway" } });
    expect(full.result.content[0].text).toBe("Echo: through the gateway");
    // Hidden from nobody: a gateway call is history like any other (default history view).
    expect((await api("GET", "/api/v1/calls")).body.items.some((c: any) => c.id === call.id)).toBe(true);
  });

  it("answers a quick call as JSON, and one with progress as an event stream", async () => {
    const answers: [string, string | null][] = [];
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const method = init?.method === "POST" ? (JSON.parse(String(init.body)) as { method?: string }).method : undefined;
      if (method) answers.push([method, res.headers.get("content-type")]);
      return res;
    };
    const transport = new StreamableHTTPClientTransport(new URL(endpoint), { fetch: recording, requestInit: { headers: { authorization: `Bearer ${gatewayToken}` } } });
    const client = new Client({ name: "json-host", version: "1" });
    await client.connect(transport);
    open.push(client);
    expect((await client.callTool({ name: "echo", arguments: { message: "json" } })).content).toEqual([{ type: "text", text: "Echo: json" }]);
    const seen: number[] = [];
    await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } }, { onprogress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2, 3]);
    const typeOf = (method: string, nth = 0) => answers.filter(([m]) => m === method)[nth]?.[1];
    expect(typeOf("initialize")).toMatch(/^application\/json/);
    expect(typeOf("tools/call", 0)).toMatch(/^application\/json/);
    expect(typeOf("tools/call", 1)).toMatch(/^text\/event-stream/);
  });

  it("negotiates the era with an auto-mode host", async () => {
    const { client } = await connect({ auto: true, name: "auto-host" });
    expect((await client.callTool({ name: "echo", arguments: { message: "auto" } })).content).toEqual([{ type: "text", text: "Echo: auto" }]);
  });

  it("forwards progress and cancellation", async () => {
    const { client } = await connect({ name: "progress-host" });
    const seen: number[] = [];
    await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 1, steps: 3 } }, { onprogress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2, 3]);
    const controller = new AbortController();
    const running = client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 30, steps: 30 } }, {
      signal: controller.signal,
      onprogress: () => controller.abort(new Error("host gave up")),
    });
    await expect(running).rejects.toThrow();
    await waitFor(async () => {
      const items = (await api("GET", "/api/v1/calls?origin=gateway&status=cancelled")).body.items;
      return items.some((c: any) => c.name === "trigger-long-running-operation");
    });
    let done: any;
    await waitFor(async () => {
      done = (await api("GET", "/api/v1/calls?origin=gateway&status=ok")).body.items.find((c: any) => c.name === "trigger-long-running-operation");
      return Boolean(done);
    });
    expect((await api("GET", `/api/v1/calls/${done.id}`)).body.call.progress).toMatchObject({ progress: 3, total: 3 });
  });

  it("forwards the server's elicitation to the host and its answer back", async () => {
    const asked: any[] = [];
    const { client } = await connect({ name: "eliciting-host", onElicit: (params) => (asked.push(params), { name: "Ada" }) });
    const result = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(result.content)).toContain("Ada");
  });

  it("offers only the tools the exposure names, read-only ones when asked, applied to open sessions at once", async () => {
    const { client } = await connect({ name: "filtered-host" });
    await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true, tools: ["echo", "toggle-subscriber-updates"] });
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["echo", "toggle-subscriber-updates"]);
    await expect(client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } })).rejects.toThrow(/not offered/);
    await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true, readOnly: true });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
    await expect(client.callTool({ name: "toggle-subscriber-updates", arguments: {} })).rejects.toThrow(/not offered/);
    await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true, tools: null, readOnly: false });
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
  });

  it("limits calls per token per minute", async () => {
    const limited = (await api("POST", "/api/v1/tokens", { name: "limited", scopes: ["gateway"] })).body.secret as string;
    await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true, rateLimitPerMinute: 2 });
    try {
      const { client } = await connect({ name: "busy-host" }, limited);
      await client.callTool({ name: "echo", arguments: { message: "1" } });
      await client.callTool({ name: "echo", arguments: { message: "2" } });
      await expect(client.callTool({ name: "echo", arguments: { message: "3" } })).rejects.toThrow(/Rate limit: 2 calls per minute/);
      // Another token has its own budget.
      const { client: other } = await connect({ name: "calm-host" });
      expect((await other.callTool({ name: "echo", arguments: { message: "ok" } })).isError).toBeFalsy();
    } finally {
      await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true, rateLimitPerMinute: null });
    }
  });

  it("lets a read-only token list and read but not call tools", async () => {
    const read = (await api("POST", "/api/v1/tokens", { name: "viewer", scopes: ["read", "gateway"] })).body.secret as string;
    const { client } = await connect({ name: "viewer-host" }, read);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await expect(client.callTool({ name: "echo", arguments: { message: "no" } })).rejects.toThrow(/Viewers cannot call tools/);
    const resources = await client.listResources();
    const first = resources.resources[0]!;
    expect((await client.readResource({ uri: first.uri })).contents.length).toBeGreaterThan(0);
  });

  it("lists connected hosts and lets an admin disconnect one", async () => {
    const { client } = await connect({ name: "to-disconnect" });
    await client.listTools();
    let mine: any;
    await waitFor(async () => {
      const items = (await api("GET", `/api/v1/servers/${serverId}/gateway/clients`)).body.items;
      mine = items.find((c: any) => c.clientName === "to-disconnect" && !c.endedAt);
      return Boolean(mine);
    });
    expect(mine).toMatchObject({ clientVersion: "1.2.3", via: "token", userName: "Ada Owner" });
    expect((await api("DELETE", `/api/v1/servers/${serverId}/gateway/clients/${mine.id}`)).status).toBe(204);
    await expect(client.listTools()).rejects.toThrow();
    const after = (await api("GET", `/api/v1/servers/${serverId}/gateway/clients`)).body.items.find((c: any) => c.id === mine.id);
    expect(after).toMatchObject({ endReason: "disconnected" });
    const audit = (await api("GET", "/api/v1/audit?action=gateway.client_disconnected")).body.items;
    expect(audit.length).toBeGreaterThan(0);
  });
});
