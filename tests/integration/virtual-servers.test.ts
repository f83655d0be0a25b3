import type { Client } from "@modelcontextprotocol/client";
import { Client as SseClient } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { startEverything, startFixture, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

// A virtual server "toolbox" over two real servers: server-everything ("everything", offered with
// an allow-list of echo only) and the modern-era fixture ("modern", not offered on its own).
describe("virtual servers /mcp/<workspace-slug>/<virtual-name>", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let everything: RunningServer;
  let modern: RunningServer;
  let slug: string;
  let token: string;
  let virtualId: string;
  const ids: Record<string, string> = {};
  const open: Client[] = [];

  const toolbox = () => [
    { serverId: ids.everything!, tool: "echo", as: "say", description: "Says the message back" },
    { serverId: ids.everything!, tool: "get-sum" },
    { serverId: ids.modern!, tool: "add", as: "plus" },
    { serverId: ids.modern!, tool: "echo" },
  ];

  beforeAll(async () => {
    [sb, everything, modern] = await Promise.all([startConsole(), startEverything("streamableHttp"), startFixture("modern-server.ts")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    slug = owner.workspace.slug;
    ids.everything = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    ids.modern = (await api("POST", "/api/v1/servers", { name: "modern", url: modern.url })).body.server.id;
    await api("PUT", `/api/v1/servers/${ids.everything}/exposure`, { enabled: true, tools: ["echo"] });
    token = (await api("POST", "/api/v1/tokens", { name: "virtual", scopes: ["gateway"] })).body.secret;
    const created = await api("POST", "/api/v1/virtual-servers", { name: "toolbox", tools: toolbox() });
    expect(created.status).toBe(201);
    virtualId = created.body.virtualServer.id;
  });
  afterAll(async () => {
    await Promise.allSettled(open.map((c) => c.close()));
    await sb?.stop();
    await Promise.allSettled([everything?.stop(), modern?.stop()]);
  });

  const endpoint = (name: string) => `${sb.url}/mcp/${encodeURIComponent(slug)}/${encodeURIComponent(name)}`;
  const host = async (opts: Parameters<typeof gatewayHost>[2] = {}, as = token, name = "toolbox") => {
    const client = await gatewayHost(endpoint(name), as, opts);
    open.push(client);
    return client;
  };
  const recorded = async (serverId: string, name: string) => {
    let found: any;
    await waitFor(async () => {
      const items = (await api("GET", `/api/v1/calls?origin=gateway&serverId=${serverId}`)).body.items as any[];
      found = items.find((c) => c.name === name && c.status !== "pending");
      return Boolean(found);
    });
    return (await api("GET", `/api/v1/calls/${found.id}`)).body.call;
  };

  it("validates a virtual server, naming the field (422), and refuses a taken name (409)", async () => {
    const bad = async (body: unknown, status: number, pattern: RegExp) => {
      const res = await api("POST", "/api/v1/virtual-servers", body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error.message).toMatch(pattern);
    };
    const echo = { serverId: ids.everything!, tool: "echo" };
    await bad({ name: "  ", tools: [] }, 422, /^name:/);
    await bad({ name: "line\nbreak", tools: [] }, 422, /^name: .*control/);
    await bad({ name: "v1", tools: [{ ...echo, as: "not a name!" }] }, 422, /^tools\.0\.as:/);
    await bad({ name: "v1", tools: [echo, { serverId: ids.modern!, tool: "echo" }] }, 422, /^tools\.1\.tool: two tools would be served as "echo"/);
    await bad({ name: "v1", tools: [echo, { ...echo, as: "x" }, { serverId: ids.modern!, tool: "add", as: "x" }] }, 422, /^tools\.2\.as:/);
    await bad({ name: "v1", tools: [{ serverId: "nope", tool: "echo" }] }, 422, /^tools\.0\.serverId: no server "nope"/);
    await bad({ name: "v1", tools: Array.from({ length: 201 }, (_, i) => ({ ...echo, as: `t${i}` })) }, 422, /^tools: at most 200/);
    await bad({ name: "everything", tools: [] }, 409, /server named "everything"/);
    await bad({ name: "toolbox", tools: [] }, 409, /virtual server named "toolbox"/);
    const field = await api("POST", "/api/v1/virtual-servers", { name: "v1", tools: [{ ...echo, as: "a b" }] });
    expect(field.body.error.details.path).toEqual(["tools", 0, "as"]);
  });

  it("lets viewers read virtual servers but only admins change them", async () => {
    const viewer = apiClient(sb.url, (await api("POST", "/api/v1/tokens", { name: "reader", scopes: ["read"] })).body.secret);
    const list = await viewer("GET", "/api/v1/virtual-servers");
    expect(list.status).toBe(200);
    expect(list.body.items.map((v: { name: string }) => v.name)).toEqual(["toolbox"]);
    expect(list.body.items[0]).toMatchObject({ path: `/mcp/${slug}/toolbox`, shadowedBy: null });
    expect((await viewer("POST", "/api/v1/virtual-servers", { name: "mine", tools: [] })).status).toBe(403);
    expect((await viewer("PATCH", `/api/v1/virtual-servers/${virtualId}`, { name: "renamed" })).status).toBe(403);
    expect((await viewer("DELETE", `/api/v1/virtual-servers/${virtualId}`)).status).toBe(403);
  });

  for (const era of ["modern", "legacy"] as const) {
    it(`lists exactly its tools, renamed and described anew, from both servers (${era}-era host)`, async () => {
      const client = await host({ name: `${era}-virtual`, era });
      const tools = (await client.listTools()).tools;
      expect(tools.map((t) => t.name)).toEqual(["say", "get-sum", "plus", "echo"]);
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      expect(byName.say!.description).toBe("Says the message back");
      expect(byName.plus!.description).toBe("Adds a and b");
      expect(byName.plus!.inputSchema.properties).toHaveProperty("a");
      expect(byName.echo!.description).toBe("Echoes the message");
      if (era === "legacy") {
        expect((await client.listPrompts()).prompts).toEqual([]);
        expect((await client.listResources()).resources).toEqual([]);
      }
    });
  }

  it("serves a host that speaks only legacy HTTP+SSE", async () => {
    const transport = new SSEClientTransport(new URL(endpoint("toolbox")), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    const client = new SseClient({ name: "sse-virtual", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["say", "get-sum", "plus", "echo"]);
      expect((await client.callTool({ name: "say", arguments: { message: "over sse" } })).content).toEqual([{ type: "text", text: "Echo: over sse" }]);
    } finally {
      await client.close();
    }
  });

  it("routes a call to the real server and tool, recorded there with the virtual server's name", async () => {
    const client = await host({ name: "calling-host" });
    expect((await client.callTool({ name: "say", arguments: { message: "hi" } })).content).toEqual([{ type: "text", text: "Echo: hi" }]);
    expect((await client.callTool({ name: "plus", arguments: { a: 20, b: 22 } })).structuredContent).toEqual({ sum: 42 });
    // get-sum is not on everything's allow-list: the virtual server's own list is what it offers.
    expect(JSON.stringify((await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } })).content)).toContain("3");

    const echo = await recorded(ids.everything!, "echo");
    expect(echo).toMatchObject({ origin: "gateway", status: "ok", serverId: ids.everything, method: "tools/call", virtualServer: "toolbox", client: "calling-host 2.0.0" });
    expect(echo.params).toEqual({ name: "echo", arguments: { message: "hi" } });
    expect(await recorded(ids.modern!, "add")).toMatchObject({ serverId: ids.modern, virtualServer: "toolbox", status: "ok" });
    // A call through the server's own endpoint has no virtual server.
    const direct = await gatewayHost(endpoint("everything"), token, { name: "direct-host" });
    open.push(direct);
    await direct.callTool({ name: "echo", arguments: { message: "direct" } });
    await waitFor(async () => {
      const items = (await api("GET", `/api/v1/calls?origin=gateway&serverId=${ids.everything}`)).body.items as any[];
      const mine = items.find((c) => c.client === "direct-host 2.0.0" && c.status === "ok");
      return Boolean(mine) && mine.virtualServer === null;
    });
  });

  it("does not answer a renamed tool's original name, and an unrenamed name goes to its own server", async () => {
    const client = await host({ name: "original-names" });
    await expect(client.callTool({ name: "add", arguments: { a: 1, b: 2 } })).rejects.toThrow(/not offered/);
    // "echo" here is modern's (everything's echo is served as "say").
    expect((await client.callTool({ name: "echo", arguments: { message: "which" } })).content).toEqual([{ type: "text", text: "Echo: which" }]);
    const call = await recorded(ids.modern!, "echo");
    expect(call).toMatchObject({ serverId: ids.modern, virtualServer: "toolbox" });
  });

  it("applies the gateway's gate with the real server: a viewer's token lists but cannot call", async () => {
    const read = (await api("POST", "/api/v1/tokens", { name: "read-gateway", scopes: ["read", "gateway"] })).body.secret as string;
    const client = await host({ name: "viewer-virtual" }, read);
    expect((await client.listTools()).tools.length).toBe(4);
    await expect(client.callTool({ name: "say", arguments: { message: "no" } })).rejects.toThrow(/Viewers cannot call tools/);
  });

  it("applies the workspace's rules with the real server and tool: a rule on add governs plus", async () => {
    const created = await api("POST", "/api/v1/policy-rules", { name: "No adding", effect: "deny", servers: [ids.modern], tools: ["add"] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const rule = created.body.rule as { id: string };
    try {
      const client = await host({ name: "governed-virtual" });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["say", "get-sum", "echo"]);
      const refused = await client.callTool({ name: "plus", arguments: { a: 1, b: 1 } }).then(
        () => null,
        (err: any) => err,
      );
      expect(refused).toMatchObject({ code: -32001, message: expect.stringContaining("No adding") });
      let denied: any;
      await waitFor(async () => {
        const items = (await api("GET", `/api/v1/calls?status=denied&origin=any&serverId=${ids.modern}`)).body.items as any[];
        denied = items.find((c) => c.policyRuleId === rule.id);
        return Boolean(denied);
      });
      expect(denied).toMatchObject({ name: "add", serverId: ids.modern, virtualServer: "toolbox", client: "governed-virtual 2.0.0" });
    } finally {
      await api("DELETE", `/api/v1/policy-rules/${rule.id}`);
    }
  });

  it("serves an offered server of the same name first, and says so on the virtual server", async () => {
    const other = await api("POST", "/api/v1/virtual-servers", { name: "later", tools: [{ serverId: ids.modern!, tool: "add" }] });
    expect(other.status).toBe(201);
    expect((await (await host({ name: "before" }, token, "later")).listTools()).tools.map((t) => t.name)).toEqual(["add"]);
    const server = (await api("POST", "/api/v1/servers", { name: "later", url: everything.url })).body.server.id as string;
    // Not offered yet: the virtual server keeps the path.
    expect((await (await host({ name: "not-yet" }, token, "later")).listTools()).tools.map((t) => t.name)).toEqual(["add"]);
    await api("PUT", `/api/v1/servers/${server}/exposure`, { enabled: true });
    expect((await (await host({ name: "after" }, token, "later")).listTools()).tools.map((t) => t.name)).toContain("get-tiny-image");
    expect((await api("GET", `/api/v1/virtual-servers/${other.body.virtualServer.id}`)).body.virtualServer.shadowedBy).toBe("later");
    await api("DELETE", `/api/v1/servers/${server}`);
    await api("DELETE", `/api/v1/virtual-servers/${other.body.virtualServer.id}`);
    await expect(host({ name: "gone" }, token, "later")).rejects.toThrow();
  });

  it("renames the endpoint with the virtual server", async () => {
    const renamed = await api("PATCH", `/api/v1/virtual-servers/${virtualId}`, { name: "kit" });
    expect(renamed.body.virtualServer).toMatchObject({ name: "kit", path: `/mcp/${slug}/kit` });
    try {
      expect((await (await host({ name: "renamed" }, token, "kit")).listTools()).tools.length).toBe(4);
      await expect(host({ name: "old-name" }, token, "toolbox")).rejects.toThrow();
    } finally {
      await api("PATCH", `/api/v1/virtual-servers/${virtualId}`, { name: "toolbox" });
    }
  });

  // Last: it archives a server.
  it("flags the tools of an archived server and stops offering them", async () => {
    expect((await api("DELETE", `/api/v1/servers/${ids.modern}`)).status).toBe(204);
    const client = await host({ name: "after-archive" });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["say", "get-sum"]);
    await expect(client.callTool({ name: "plus", arguments: { a: 1, b: 2 } })).rejects.toThrow(/not offered/);
    const dto = (await api("GET", `/api/v1/virtual-servers/${virtualId}`)).body.virtualServer;
    expect(dto.tools.map((t: any) => [t.as ?? t.tool, t.problem])).toEqual([
      ["say", null],
      ["get-sum", null],
      ["plus", "server_archived"],
      ["echo", "server_archived"],
    ]);
    // Saving it again with an archived server's tool is refused, naming the entry.
    const again = await api("PATCH", `/api/v1/virtual-servers/${virtualId}`, { tools: toolbox() });
    expect(again.status).toBe(422);
    expect(again.body.error.message).toMatch(/^tools\.2\.serverId: the server "modern" is archived/);
  });
});
