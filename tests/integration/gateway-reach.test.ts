import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { startEverything, type RunningServer } from "../support/servers";
import { FILESYSTEM, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];
type Kind = "tools" | "prompts" | "resources";

// The aggregated endpoint behind three servers, in name order: "demo" (built in, always there),
// "stdio" (server-filesystem on a paired agent: tools only) and "web" (server-everything over
// Streamable HTTP: tools, prompts, resources).
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
  const files = fs.mkdtempSync(path.join(os.tmpdir(), "sb-reach-"));
  const config = { mcpServers: { stdio: { command: process.execPath, args: [FILESYSTEM, files] } } };
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

  const cases = [
    {
      server: "web",
      tool: "web__echo",
      call: { name: "web__echo", arguments: { message: "back" } },
      lists: true,
      goAway: () => web.stop(),
      comeBack: async () => void (web = await startEverything("streamableHttp", { port: web.port })),
      why: /fetch failed|ECONNREFUSED|connect|reach/i,
    },
    {
      server: "stdio",
      tool: "stdio__list_allowed_directories",
      call: { name: "stdio__list_allowed_directories", arguments: {} },
      lists: false,
      goAway: async () => {
        await agent.stop();
        await waitForAgent(api, agentId, "offline", 20_000);
      },
      comeBack: async () => {
        agent = startAgent(home, config, { grace: 60 });
        await waitForAgent(api, agentId, "online", 20_000, () => agent.output());
      },
      why: /agent offline/,
    },
  ];

  for (const { server, tool, call, lists, goAway, comeBack, why } of cases) {
    it(`leaves "${server}" out of the very next lists when it goes away, logs why, and brings it back with list_changed`, async () => {
      const before = { modern: await offered(modern), legacy: await offered(legacy) };
      for (const seen of Object.values(before)) {
        expect(seen.tools).toContain(tool);
        expect(seen.tools).toEqual(expect.arrayContaining(["demo__hello", "web__echo", "stdio__list_allowed_directories"]));
        if (lists) expect(prefixed(seen.prompts, server).length).toBeGreaterThan(0);
      }
      const logsBefore = sb.logs().length;

      await goAway();
      for (const era of ["modern", "legacy"] as const) {
        const after = await offered(era === "modern" ? modern : legacy);
        expect(prefixed(after.tools, server), era).toEqual([]);
        expect(prefixed(after.prompts, server), era).toEqual([]);
        // The other servers stay.
        expect(after.tools, era).toEqual(expect.arrayContaining(["demo__hello", server === "web" ? "stdio__list_allowed_directories" : "web__echo"]));
        expect(after.prompts.some((p) => p.startsWith("demo__")), era).toBe(true);
        expect(after.resources, era).toContain("demo://readme");
        if (lists) expect(after.resources.length, era).toBeLessThan(before[era].resources.length);
        else expect(after.resources, era).toEqual(before[era].resources);
      }
      // A call naming one of its tools is refused as not offered.
      await expect(modern.callTool(call)).rejects.toThrow(/not offered/);
      const logged = sb.logs().slice(logsBefore).split("\n").filter((line) => line.includes(`[gateway] ${server} left out of /mcp/`));
      expect(logged.length).toBeGreaterThan(0);
      expect(logged.join("\n")).toMatch(why);

      heard.modern.clear();
      heard.legacy.clear();
      await comeBack();
      await waitFor(() => ["tools", "prompts", "resources"].every((k) => heard.modern.has(k as Kind) && heard.legacy.has(k as Kind)), 20_000, () => JSON.stringify({ modern: [...heard.modern], legacy: [...heard.legacy] }));
      expect(sb.logs().slice(logsBefore)).toContain(`[gateway] ${server} is reachable again`);
      for (const era of ["modern", "legacy"] as const) {
        const back = await offered(era === "modern" ? modern : legacy);
        expect(back.tools, era).toEqual(before[era].tools);
        expect(back.prompts, era).toEqual(before[era].prompts);
        expect(back.resources, era).toEqual(before[era].resources);
      }
      const result = await legacy.callTool(call);
      expect(result.isError).toBeFalsy();
      if (server === "web") expect(result.content).toEqual([{ type: "text", text: "Echo: back" }]);
      else expect(JSON.stringify(result.content)).toContain(path.basename(files));
    });
  }
});
