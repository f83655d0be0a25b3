import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, sessionCookie, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { startEverything, startFixture, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

// Three offered servers, in name order: "demo" (built in), "every thing" (server-everything, legacy
// era, an allow-list) and "every_thing" (a modern-era fixture), whose names normalise alike.
describe("the gateway's aggregated endpoint /mcp/<workspace-slug>", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let everything: RunningServer;
  let modern: RunningServer;
  let endpoint: string;
  let token: string;
  const ids: Record<string, string> = {};
  const open: Client[] = [];

  beforeAll(async () => {
    [sb, everything, modern] = await Promise.all([startConsole(), startEverything("streamableHttp"), startFixture("modern-server.ts")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    ids.demo = (await api("POST", "/api/v1/servers/demo")).body.server.id;
    ids.everything = (await api("POST", "/api/v1/servers", { name: "every thing", url: everything.url })).body.server.id;
    ids.modern = (await api("POST", "/api/v1/servers", { name: "every_thing", url: modern.url })).body.server.id;
    // Offered by nobody: never part of the aggregate.
    await api("POST", "/api/v1/servers", { name: "not offered", url: everything.url });
    await api("PUT", `/api/v1/servers/${ids.demo}/exposure`, { enabled: true });
    await api("PUT", `/api/v1/servers/${ids.everything}/exposure`, { enabled: true, tools: ["echo", "get-sum"] });
    await api("PUT", `/api/v1/servers/${ids.modern}/exposure`, { enabled: true });
    endpoint = `${sb.url}/mcp/${encodeURIComponent(owner.workspace.slug)}`;
    token = (await api("POST", "/api/v1/tokens", { name: "aggregate", scopes: ["gateway"] })).body.secret;
  });
  afterAll(async () => {
    await Promise.allSettled(open.map((c) => c.close()));
    await sb?.stop();
    await Promise.allSettled([everything?.stop(), modern?.stop()]);
  });

  const host = async (opts: Parameters<typeof gatewayHost>[2] = {}, as = token) => {
    const client = await gatewayHost(endpoint, as, opts);
    open.push(client);
    return client;
  };

  const recorded = async (serverId: string, name: string) => {
    let found: any;
    let items: any[] = [];
    await waitFor(
      async () => {
        items = (await api("GET", `/api/v1/calls?origin=gateway&serverId=${serverId}`)).body.items as any[];
        found = items.find((c) => c.name === name && c.status !== "pending");
        return Boolean(found);
      },
      10_000,
      () => JSON.stringify(items.map((c) => [c.method, c.name, c.status])),
    );
    return (await api("GET", `/api/v1/calls/${found.id}`)).body.call;
  };

  it("merges the offered servers' tools under <server>__<tool>, collisions suffixed in name order, hidden tools absent", async () => {
    const client = await host({ name: "merging-host" });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["demo__hello", "demo__add", "every_thing__echo", "every_thing__get-sum", "every_thing_2__echo", "every_thing_2__add"]));
    // server-everything's other tools are not on its allow-list; the unoffered server is not there at all.
    expect(names.filter((n) => n.startsWith("every_thing__")).sort()).toEqual(["every_thing__echo", "every_thing__get-sum"]);
    expect(names.every((n) => /^(demo|every_thing|every_thing_2)__/.test(n))).toBe(true);
    await expect(client.callTool({ name: "every_thing__get-tiny-image", arguments: {} })).rejects.toThrow(/not offered/);
  });

  for (const era of ["modern", "legacy"] as const) {
    it(`routes each call to its server and records it there (${era}-era host)`, async () => {
      const client = await host({ name: `${era}-aggregate`, era });
      const hello = await client.callTool({ name: "demo__hello", arguments: { name: era } });
      expect((hello.content as { text: string }[])[0]!.text).toContain(`Hello, ${era}!`);
      const echo = await client.callTool({ name: "every_thing__echo", arguments: { message: era } });
      expect(echo.content).toEqual([{ type: "text", text: `Echo: ${era}` }]);
      const sum = await client.callTool({ name: "every_thing_2__add", arguments: { a: 20, b: 22 } });
      expect(sum.structuredContent).toEqual({ sum: 42 });

      for (const [server, name] of [["demo", "hello"], ["everything", "echo"], ["modern", "add"]] as const) {
        const call = await recorded(ids[server]!, name);
        expect(call).toMatchObject({ origin: "gateway", status: "ok", serverId: ids[server], method: "tools/call", userName: "Ada Owner" });
        expect(call.params.name).toBe(name);
      }
      if (era === "modern") expect((await recorded(ids.demo!, "hello")).client).toBe("modern-aggregate 2.0.0");
    });
  }

  it("merges prompts likewise and routes resources by the server that lists them", async () => {
    const client = await host({ name: "reading-host" });
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toEqual(expect.arrayContaining(["demo__welcome", "demo__roll-for"]));
    expect(prompts.some((p) => p.startsWith("every_thing__"))).toBe(true);
    const got = await client.getPrompt({ name: "demo__roll-for", arguments: { decision: "lunch" } });
    expect(JSON.stringify(got.messages)).toContain("lunch");
    expect((await recorded(ids.demo!, "roll-for")).method).toBe("prompts/get");

    const resources = (await client.listResources()).resources.map((r) => r.uri);
    expect(resources).toContain("demo://readme");
    const demoUris = (await api("GET", `/api/v1/servers/${ids.demo}/resources`)).body.items.map((r: { uri: string }) => r.uri) as string[];
    expect(demoUris).toContain("demo://readme");
    const fromEverything = resources.find((uri) => !demoUris.includes(uri))!;
    expect(fromEverything).toBeDefined();
    expect((await client.readResource({ uri: "demo://readme" })).contents.length).toBe(1);
    expect((await client.readResource({ uri: fromEverything })).contents.length).toBeGreaterThan(0);
    expect((await recorded(ids.demo!, "demo://readme")).method).toBe("resources/read");
    expect((await recorded(ids.everything!, fromEverything)).serverId).toBe(ids.everything);
  });

  it("passes a server's tools list_changed on to modern hosts listening", async () => {
    // A host whose first request is the listen (its token has no upstream connection yet); another host touches the tools.
    const listener = (await api("POST", "/api/v1/tokens", { name: "listener", scopes: ["gateway"] })).body.secret as string;
    const client = await host({ name: "listening-host" }, listener);
    let heard = () => {};
    const changed = new Promise<void>((resolve) => (heard = resolve));
    client.setNotificationHandler("notifications/tools/list_changed", () => heard());
    const subscription = await client.listen({ toolsListChanged: true });
    try {
      const toucher = await host({ name: "touching-host" });
      await toucher.callTool({ name: "every_thing_2__touch-tools", arguments: {} });
      await changed;
    } finally {
      await subscription.close();
    }
  });

  it("keeps a legacy-era host in a session of its own, which hears list_changed", async () => {
    const client = await host({ name: "legacy-listener", era: "legacy" });
    const transport = client.transport as { sessionId?: string } | undefined;
    expect(transport?.sessionId).toBeTruthy();
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("every_thing_2__touch-tools");
    let heard = false;
    client.setNotificationHandler("notifications/tools/list_changed", () => void (heard = true));
    const toucher = await host({ name: "legacy-toucher" });
    // The host's GET stream opens on its own after initialize: touch until it carries the notification.
    await waitFor(async () => {
      await toucher.callTool({ name: "every_thing_2__touch-tools", arguments: {} });
      return heard;
    });
    // A session this instance does not hold: 404, so that the host initializes again.
    const res = await fetch(endpoint, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "mcp-session-id": "no-such-session", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(404);
    const call = await recorded(ids.modern!, "touch-tools");
    expect(call.origin).toBe("gateway");
  });

  it("takes resource subscriptions in both eras, routed to the server that lists the URI", async () => {
    await api("PUT", `/api/v1/servers/${ids.everything}/exposure`, { enabled: true, tools: ["echo", "get-sum", "toggle-subscriber-updates"] });
    const subscriber = (await api("POST", "/api/v1/tokens", { name: "subscriber", scopes: ["gateway"] })).body.secret as string;
    try {
      const modern = await host({ name: "modern-subscriber" }, subscriber);
      expect(modern.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
      const demoUris = (await api("GET", `/api/v1/servers/${ids.demo}/resources`)).body.items.map((r: { uri: string }) => r.uri) as string[];
      const uri = (await modern.listResources()).resources.map((r) => r.uri).find((u) => !demoUris.includes(u))!;
      const heard: Record<string, string[]> = { modern: [], legacy: [] };
      modern.setNotificationHandler("notifications/resources/updated", (n) => void heard.modern!.push(n.params.uri));
      // A URI no server here lists is left out of what the acknowledgement honours.
      const subscription = await modern.listen({ resourceSubscriptions: [uri, "nowhere://at/all"] });
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual([uri]);
      const toggle = (client: Client) => client.callTool({ name: "every_thing__toggle-subscriber-updates", arguments: {} });
      // Each start sends one update per subscribed URI; a stop follows so that the next start sends again.
      await waitFor(async () => {
        await toggle(modern);
        await toggle(modern);
        return heard.modern!.length > 0;
      });
      expect(heard.modern![0]).toBe(uri);
      await subscription.close();

      const legacy = await host({ name: "legacy-subscriber", era: "legacy" }, subscriber);
      expect(legacy.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
      legacy.setNotificationHandler("notifications/resources/updated", (n) => void heard.legacy!.push(n.params.uri));
      await legacy.subscribeResource({ uri });
      await expect(legacy.subscribeResource({ uri: "nowhere://at/all" })).rejects.toThrow(/takes a subscription/);
      // The session's GET stream opens on its own after initialize: toggle until it carries the update.
      await waitFor(async () => {
        await toggle(legacy);
        await toggle(legacy);
        return heard.legacy!.length > 0;
      });
      expect(heard.legacy![0]).toBe(uri);
      await legacy.unsubscribeResource({ uri });
    } finally {
      await api("PUT", `/api/v1/servers/${ids.everything}/exposure`, { enabled: true, tools: ["echo", "get-sum"] });
    }
  });

  it("passes a server's log lines to a legacy host's session at the level it set, the logger naming the server", async () => {
    await api("PUT", `/api/v1/servers/${ids.everything}/exposure`, { enabled: true, tools: ["echo", "toggle-simulated-logging"] });
    const logger = (await api("POST", "/api/v1/tokens", { name: "logger", scopes: ["gateway"] })).body.secret as string;
    try {
      const legacy = await host({ name: "legacy-logger", era: "legacy" }, logger);
      expect(legacy.getServerCapabilities()?.logging).toEqual({});
      const lines: { level: string; logger?: string; data: unknown }[] = [];
      legacy.setNotificationHandler("notifications/message", (n) => void lines.push(n.params as never));
      await legacy.setLoggingLevel("debug");
      const toggle = () => legacy.callTool({ name: "every_thing__toggle-simulated-logging", arguments: {} });
      // Starting sends one line at once (then one every 5 s); the session's GET stream opens on its own after initialize.
      await waitFor(async () => {
        await toggle();
        await toggle();
        return lines.length > 0;
      });
      expect(lines[0]!.logger).toBe("every_thing");
      expect(String(lines[0]!.data)).toMatch(/-level message|level-message/);
      // A modern host is not offered logging (deprecated in its era; its requests carry no session lines).
      expect((await host({ name: "modern-logger" }, logger)).getServerCapabilities()?.logging).toBeUndefined();
    } finally {
      await api("PUT", `/api/v1/servers/${ids.everything}/exposure`, { enabled: true, tools: ["echo", "get-sum"] });
    }
  });

  it("lets a viewer list but not call", async () => {
    const read = (await api("POST", "/api/v1/tokens", { name: "viewer", scopes: ["read", "gateway"] })).body.secret as string;
    const client = await host({ name: "viewer-host" }, read);
    expect((await client.listTools()).tools.length).toBeGreaterThan(3);
    await expect(client.callTool({ name: "demo__hello", arguments: { name: "no" } })).rejects.toThrow(/Viewers cannot call tools/);
  });

  it("refuses no token, a token without the gateway scope, a token of another workspace, and unknown workspaces", async () => {
    const post = (headers: Record<string, string>, url = endpoint) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }) });
    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toContain(`resource_metadata="${sb.url}/.well-known/oauth-protected-resource/mcp/`);
    const full = (await api("POST", "/api/v1/tokens", { name: "api only" })).body.secret as string;
    expect((await post({ authorization: `Bearer ${full}` })).status).toBe(403);

    const cookie = await sessionCookie(sb.url, "ada@example.com", "correct horse battery");
    const other = await apiClient(sb.url)("POST", "/api/v1/workspaces", { name: "Other team" }, { cookie });
    expect(other.status).toBe(201);
    const foreign = await apiClient(sb.url)("POST", "/api/v1/tokens", { name: "other", scopes: ["gateway"] }, { cookie, "x-workspace-id": other.body.workspace.id });
    expect(foreign.status).toBe(201);
    const refused = await post({ authorization: `Bearer ${foreign.body.secret}` });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.message).toMatch(/another workspace/);
    await expect(gatewayHost(endpoint, foreign.body.secret)).rejects.toThrow();
    // Its own workspace's aggregate exists but offers nothing.
    const own = await gatewayHost(`${sb.url}/mcp/${encodeURIComponent(other.body.workspace.slug)}`, foreign.body.secret);
    open.push(own);
    expect((await own.listTools()).tools).toEqual([]);
    expect((await post({ authorization: `Bearer ${token}` }, `${sb.url}/mcp/no-such-workspace`)).status).toBe(404);
  });

  it("drops a server whose exposure is turned off, at once", async () => {
    const client = await host({ name: "shrinking-host" });
    await api("PUT", `/api/v1/servers/${ids.modern}/exposure`, { enabled: false });
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names.some((n) => n.startsWith("every_thing_2__"))).toBe(false);
      // Names are given over the offered servers: "every_thing_2" is gone, the others keep theirs.
      expect(names).toEqual(expect.arrayContaining(["demo__hello", "every_thing__echo"]));
    } finally {
      await api("PUT", `/api/v1/servers/${ids.modern}/exposure`, { enabled: true });
    }
  });
});
