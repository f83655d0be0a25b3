import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { startEverything, type RunningServer } from "../support/servers";
import { EVERYTHING, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];
type Kind = "tools" | "prompts" | "resources";

// The aggregated endpoint behind three servers, in name order: "demo" (built in, always there),
// "stdio" (server-everything on a paired agent) and "web" (server-everything over Streamable HTTP).
// "web" is killed and started again on its port; the agent is stopped and started again.
describe("the aggregated endpoint offers only the servers it can reach", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let web: RunningServer;
  let agent: RunningAgent;
  let home: string;
  let agentId: string;
  let token: string;
  let endpoint: string;
  let modern: Client;
  let legacy: Client;
  const config = { mcpServers: { stdio: { command: process.execPath, args: [EVERYTHING, "stdio"] } } };
  // What each host heard since the last `heard.clear()`.
  const heard = { modern: new Set<Kind>(), legacy: new Set<Kind>() };
  let listening: { close(): Promise<void> } | undefined;

  beforeAll(async () => {
    [sb, web] = await Promise.all([startConsole({ env: { SWITCHBOARD_GATEWAY_RECHECK_MS: "300" } }), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    const paired = await pairNewAgent(api, sb.url, "reach-agent");
    home = paired.home;
    agentId = paired.agentId;
    agent = startAgent(home, config, { grace: 60 });
    await waitForAgent(api, agentId, "online", 20_000, () => agent.output());
    const ids = [(await api("POST", "/api/v1/servers/demo")).body.server.id, await serverId(api, "stdio"), (await api("POST", "/api/v1/servers", { name: "web", url: web.url })).body.server.id];
    for (const id of ids) expect((await api("PUT", `/api/v1/servers/${id}/exposure`, { enabled: true })).status).toBe(200);
    endpoint = `${sb.url}/mcp/${encodeURIComponent(owner.workspace.slug)}`;
    token = (await api("POST", "/api/v1/tokens", { name: "reach", scopes: ["gateway"] })).body.secret;
    modern = await gatewayHost(endpoint, token, { name: "reach-modern" });
    legacy = await gatewayHost(endpoint, token, { name: "reach-legacy", era: "legacy" });
    for (const [era, client] of [["modern", modern], ["legacy", legacy]] as const) {
      client.setNotificationHandler("notifications/tools/list_changed", () => void heard[era].add("tools"));
      client.setNotificationHandler("notifications/prompts/list_changed", () => void heard[era].add("prompts"));
      client.setNotificationHandler("notifications/resources/list_changed", () => void heard[era].add("resources"));
    }
    listening = await modern.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
  });
  afterAll(async () => {
    await listening?.close().catch(() => undefined);
    await Promise.allSettled([modern?.close(), legacy?.close()]);
    await agent?.stop("SIGKILL");
    await sb?.stop();
    await web?.stop();
  });

  const offered = async (client: Client) => ({
    tools: (await client.listTools()).tools.map((t) => t.name),
    prompts: (await client.listPrompts()).prompts.map((p) => p.name),
    resources: (await client.listResources()).resources.map((r) => r.uri),
  });
  const prefixed = (names: string[], prefix: string) => names.filter((n) => n.startsWith(`${prefix}__`));

  for (const [server, goAway, comeBack, why] of [
    ["web", () => web.stop(), async () => void (web = await startEverything("streamableHttp", { port: web.port })), /fetch failed|ECONNREFUSED|connect|reach/i],
    [
      "stdio",
      async () => {
        await agent.stop();
        await waitForAgent(api, agentId, "offline", 20_000);
      },
      async () => {
        agent = startAgent(home, config, { grace: 60 });
        await waitForAgent(api, agentId, "online", 20_000, () => agent.output());
      },
      /agent offline/,
    ],
  ] as const) {
    it(`leaves "${server}" out of the very next lists when it goes away, logs why, and brings it back with list_changed`, async () => {
      for (const client of [modern, legacy]) {
        const before = await offered(client);
        expect(prefixed(before.tools, server)).toContain(`${server}__echo`);
        expect(prefixed(before.prompts, server).length).toBeGreaterThan(0);
        expect(before.tools).toContain("demo__hello");
      }
      const resourcesBefore = (await offered(modern)).resources;
      const logsBefore = sb.logs().length;

      await goAway();
      for (const client of [modern, legacy]) {
        const after = await offered(client);
        expect(prefixed(after.tools, server)).toEqual([]);
        expect(prefixed(after.prompts, server)).toEqual([]);
        // The other servers stay.
        expect(after.tools).toEqual(expect.arrayContaining(["demo__hello", `${server === "web" ? "stdio" : "web"}__echo`]));
        expect(after.prompts.some((p) => p.startsWith("demo__"))).toBe(true);
        expect(after.resources).toContain("demo://readme");
        expect(after.resources.length).toBeLessThan(resourcesBefore.length);
      }
      // A call naming one of its tools is refused as not offered.
      await expect(modern.callTool({ name: `${server}__echo`, arguments: { message: "anyone?" } })).rejects.toThrow(/not offered/);
      const logged = sb.logs().slice(logsBefore).split("\n").filter((line) => line.includes(`[gateway] ${server} left out of /mcp/`));
      expect(logged.length).toBeGreaterThan(0);
      expect(logged.join("\n")).toMatch(why);

      heard.modern.clear();
      heard.legacy.clear();
      await comeBack();
      await waitFor(() => ["tools", "prompts", "resources"].every((k) => heard.modern.has(k as Kind) && heard.legacy.has(k as Kind)), 20_000, () => JSON.stringify({ modern: [...heard.modern], legacy: [...heard.legacy] }));
      expect(sb.logs().slice(logsBefore)).toContain(`[gateway] ${server} is reachable again`);
      for (const client of [modern, legacy]) {
        const back = await offered(client);
        expect(prefixed(back.tools, server)).toContain(`${server}__echo`);
        expect(prefixed(back.prompts, server).length).toBeGreaterThan(0);
        expect(back.resources.length).toBe(resourcesBefore.length);
      }
      const echo = await legacy.callTool({ name: `${server}__echo`, arguments: { message: "back" } });
      expect(echo.content).toEqual([{ type: "text", text: "Echo: back" }]);
    });
  }
});
