import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { startEverything, startFixture, type RunningServer } from "../support/servers";
import { startWireTap } from "../support/wire-tap";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

describe("the gateway for hosts that speak only the modern era (2026-07-28)", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let everything: RunningServer;
  let modern: RunningServer;
  const ids: Record<string, string> = {};
  const endpoints: Record<string, string> = {};
  let token: string;
  const open: Client[] = [];

  beforeAll(async () => {
    [sb, everything, modern] = await Promise.all([startConsole({ env: { SWITCHBOARD_GATEWAY_IDLE_MS: "2000" } }), startEverything("streamableHttp"), startFixture("modern-server.ts")]);
    ({ api } = await setupOwner(sb.url));
    for (const [name, url, tools] of [
      ["everything", everything.url, ["echo", "get-sum"]],
      ["modern", modern.url, ["echo", "add"]],
    ] as const) {
      ids[name] = (await api("POST", "/api/v1/servers", { name, url })).body.server.id;
      const exposure = await api("PUT", `/api/v1/servers/${ids[name]}/exposure`, { enabled: true, tools });
      expect(exposure.status).toBe(200);
      endpoints[name] = `${sb.url}${exposure.body.exposure.path}`;
    }
    token = (await api("POST", "/api/v1/tokens", { name: "modern", scopes: ["gateway"] })).body.secret;
  });
  afterAll(async () => {
    await Promise.allSettled(open.map((c) => c.close()));
    await sb?.stop();
    await Promise.allSettled([everything?.stop(), modern?.stop()]);
  });

  const host = async (name: string, as = token, hostName?: string) => {
    const client = await gatewayHost(endpoints[name]!, as, { name: hostName });
    open.push(client);
    return client;
  };

  const gatewayCall = async (serverId: string, name: string, status = "ok") => {
    let found: any;
    await waitFor(async () => {
      const items = (await api("GET", `/api/v1/calls?origin=gateway&serverId=${serverId}`)).body.items as any[];
      found = items.find((c) => c.name === name && c.status === status);
      return Boolean(found);
    });
    return (await api("GET", `/api/v1/calls/${found.id}`)).body.call;
  };

  for (const [server, era] of [["everything", "legacy"], ["modern", "modern"]] as const) {
    it(`lists, calls and records through a ${era}-era server`, async () => {
      const client = await host(server, token, `${server}-host`);
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const tools = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(tools).toEqual(server === "everything" ? ["echo", "get-sum"] : ["add", "echo"]);
      const result = await client.callTool({ name: "echo", arguments: { message: `modern to ${server}` } });
      expect(result.content).toEqual([{ type: "text", text: `Echo: modern to ${server}` }]);

      const call = await gatewayCall(ids[server]!, "echo");
      expect(call).toMatchObject({ origin: "gateway", status: "ok", serverId: ids[server], userName: "Ada Owner", method: "tools/call", client: `${server}-host 2.0.0` });
      expect(call.params).toEqual({ name: "echo", arguments: { message: `modern to ${server}` } });
      expect(call.result.content[0].text).toBe(`Echo: modern to ${server}`);
    });
  }

  it("refuses a tool the exposure hides, and records nothing for it", async () => {
    const client = await host("everything");
    await expect(client.callTool({ name: "get-tiny-image", arguments: {} })).rejects.toThrow(/not offered/);
    const modernClient = await host("modern");
    await expect(modernClient.callTool({ name: "touch-tools", arguments: {} })).rejects.toThrow(/not offered/);
    const items = (await api("GET", "/api/v1/calls?origin=gateway")).body.items as any[];
    expect(items.filter((c) => c.name === "get-tiny-image" || c.name === "touch-tools")).toEqual([]);
  });

  it("refuses arguments the tool's schema does not take before they leave (as the API, nothing recorded)", async () => {
    const client = await host("modern", token, "erring-host");
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });
    await expect(client.callTool({ name: "add", arguments: { a: "two" } })).rejects.toThrow(/input schema: arguments\/b: must have required property 'b'; arguments\/a: must be number/);
    let items: any[] = [];
    await waitFor(async () => {
      items = (await api("GET", `/api/v1/calls?origin=gateway&serverId=${ids.modern}`)).body.items as any[];
      return items.some((c) => c.name === "add" && c.status === "ok" && c.client === "erring-host 2.0.0");
    });
    expect(items.filter((c) => c.name === "add" && c.status === "error")).toEqual([]);
  });

  it("lets a viewer list but not call, and refuses a token without the gateway scope", async () => {
    const read = (await api("POST", "/api/v1/tokens", { name: "viewer", scopes: ["read", "gateway"] })).body.secret as string;
    const client = await host("everything", read);
    expect((await client.listTools()).tools.length).toBe(2);
    await expect(client.callTool({ name: "echo", arguments: { message: "no" } })).rejects.toThrow(/Viewers cannot call tools/);
    const full = (await api("POST", "/api/v1/tokens", { name: "api only" })).body.secret as string;
    await expect(gatewayHost(endpoints.everything!, full)).rejects.toThrow();
  });

  it("applies the rate limit per token", async () => {
    await api("PUT", `/api/v1/servers/${ids.modern}/exposure`, { enabled: true, rateLimitPerMinute: 1 });
    try {
      const limited = (await api("POST", "/api/v1/tokens", { name: "limited", scopes: ["gateway"] })).body.secret as string;
      const client = await host("modern", limited);
      await client.callTool({ name: "echo", arguments: { message: "1" } });
      await expect(client.callTool({ name: "echo", arguments: { message: "2" } })).rejects.toThrow(/Rate limit: 1 calls per minute/);
    } finally {
      await api("PUT", `/api/v1/servers/${ids.modern}/exposure`, { enabled: true, rateLimitPerMinute: null });
    }
  });

  it("answers 404 once the server is no longer offered", async () => {
    const client = await host("modern");
    await client.listTools();
    await api("PUT", `/api/v1/servers/${ids.modern}/exposure`, { enabled: false });
    try {
      await expect(client.listTools()).rejects.toThrow(/404|not offered|No server/);
    } finally {
      await api("PUT", `/api/v1/servers/${ids.modern}/exposure`, { enabled: true });
    }
  });

  it("subscribes to a resource on the host's listen stream: updates reach it, and the upstream subscription ends with the stream", async () => {
    const tap = await startWireTap(everything.baseUrl);
    try {
      const tapped = (await api("POST", "/api/v1/servers", { name: "subscribed", url: tap.url, transport: "streamable-http" })).body.server.id;
      const path = (await api("PUT", `/api/v1/servers/${tapped}/exposure`, { enabled: true, tools: ["toggle-subscriber-updates"] })).body.exposure.path;
      const client = await gatewayHost(`${sb.url}${path}`, token, { name: "subscribing-host" });
      open.push(client);
      expect(client.getServerCapabilities()?.resources, JSON.stringify(client.getServerCapabilities())).toMatchObject({ subscribe: true });
      const uri = (await client.listResources()).resources[0]!.uri;
      const updates: string[] = [];
      let heard = () => {};
      const updated = new Promise<void>((resolve) => (heard = resolve));
      client.setNotificationHandler("notifications/resources/updated", (n) => {
        updates.push(n.params.uri);
        heard();
      });
      const subscription = await client.listen({ resourceSubscriptions: [uri] });
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual([uri]);
      expect(tap.messages.filter((m) => m.method === "resources/subscribe").map((m) => m.params?.uri)).toEqual([uri]);
      // server-everything sends an update per subscribed URI when its updates start.
      await client.callTool({ name: "toggle-subscriber-updates", arguments: {} });
      await updated;
      expect(updates[0]).toBe(uri);
      await client.callTool({ name: "toggle-subscriber-updates", arguments: {} });
      await subscription.close();
      await tap.next((m) => m.method === "resources/unsubscribe" && m.params?.uri === uri);
    } finally {
      await tap.stop();
    }
  });

  it("shares one upstream session per token and server, and leaves it when idle or no longer offered", async () => {
    const tap = await startWireTap(everything.baseUrl);
    try {
      const tapped = (await api("POST", "/api/v1/servers", { name: "tapped", url: tap.url, transport: "streamable-http" })).body.server.id;
      const path = (await api("PUT", `/api/v1/servers/${tapped}/exposure`, { enabled: true })).body.exposure.path;
      const client = await gatewayHost(`${sb.url}${path}`, token, { name: "reusing-host" });
      for (const message of ["1", "2", "3"]) await client.callTool({ name: "echo", arguments: { message } });
      const count = (method: string) => tap.messages.filter((m) => m.method === method).length;
      expect(count("tools/call")).toBe(3);
      expect(count("initialize")).toBe(1);
      // Idle for longer than SWITCHBOARD_GATEWAY_IDLE_MS: the session is left (DELETE), the next request opens another.
      await tap.next((m) => m.method === "HTTP DELETE");
      await client.callTool({ name: "echo", arguments: { message: "4" } });
      expect(count("initialize")).toBe(2);
      // Another token has its own.
      const other = (await api("POST", "/api/v1/tokens", { name: "other host", scopes: ["gateway"] })).body.secret as string;
      await (await gatewayHost(`${sb.url}${path}`, other, { name: "other-host" })).callTool({ name: "echo", arguments: { message: "5" } });
      expect(count("initialize")).toBe(3);
      // No longer offered: both are left at once.
      const deletes = count("HTTP DELETE");
      await api("PUT", `/api/v1/servers/${tapped}/exposure`, { enabled: false });
      await waitFor(() => count("HTTP DELETE") === deletes + 2);
    } finally {
      await tap.stop();
    }
  });
});
