import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { startEverything, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

// Hosts without a relay session — modern-era hosts and every host of the aggregated endpoint — under Connected clients.
describe("Connected clients for bridged hosts", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let everything: RunningServer;
  let serverId = "";
  let endpoint = "";
  let aggregated = "";
  let token = "";
  const open: Client[] = [];

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    ({ api } = await setupOwner(sb.url));
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    const exposure = await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true });
    endpoint = `${sb.url}${exposure.body.exposure.path}`;
    aggregated = endpoint.slice(0, endpoint.lastIndexOf("/"));
    token = (await api("POST", "/api/v1/tokens", { name: "hosts", scopes: ["gateway"] })).body.secret;
  });
  afterAll(async () => {
    await Promise.allSettled(open.map((c) => c.close()));
    await sb?.stop();
    await everything?.stop();
  });

  const host = async (url: string, name: string, era: "modern" | "legacy" = "modern") => {
    const client = await gatewayHost(url, token, { name, era });
    open.push(client);
    return client;
  };
  const clients = async () => (await api("GET", `/api/v1/servers/${serverId}/gateway/clients`)).body.items as any[];
  const listed = async (name: string, open = true) => {
    let found: any;
    await waitFor(async () => {
      found = (await clients()).find((c) => c.clientName === name && (c.endedAt === null) === open);
      return Boolean(found);
    });
    return found;
  };

  it("lists a modern-era host on the server's endpoint, once however many requests it makes", async () => {
    const client = await host(endpoint, "modern-host");
    await client.listTools();
    await client.callTool({ name: "echo", arguments: { message: "seen" } });
    const row = await listed("modern-host");
    expect(row).toMatchObject({ clientVersion: "2.0.0", protocolVersion: "2026-07-28", via: "token", userName: "Ada Owner", endedAt: null });
    expect((await clients()).filter((c) => c.clientName === "modern-host")).toHaveLength(1);
  });

  it("lists hosts of the aggregated endpoint under the server, in either era", async () => {
    const modern = await host(aggregated, "aggregate-modern");
    await modern.callTool({ name: "everything__echo", arguments: { message: "via the workspace" } });
    const legacy = await host(aggregated, "aggregate-legacy", "legacy");
    await legacy.listTools();
    expect(await listed("aggregate-modern")).toMatchObject({ protocolVersion: "2026-07-28" });
    expect((await listed("aggregate-legacy")).protocolVersion).not.toBe("2026-07-28");
  });

  it("lets an admin disconnect one: its row ends, and a request after that lists it anew", async () => {
    const client = await host(endpoint, "to-disconnect");
    await client.listTools();
    const row = await listed("to-disconnect");
    expect((await api("DELETE", `/api/v1/servers/${serverId}/gateway/clients/${row.id}`)).status).toBe(204);
    const ended = (await clients()).find((c) => c.id === row.id);
    expect(ended).toMatchObject({ endReason: "disconnected" });
    expect(ended.endedAt).not.toBeNull();
    // The host still holds a valid token (revoke it to keep it out): its next request works and is listed again.
    await client.callTool({ name: "echo", arguments: { message: "back" } });
    const again = await listed("to-disconnect");
    expect(again.id).not.toBe(row.id);
  });
});
