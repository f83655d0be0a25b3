import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { EVERYTHING, callTool, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

/** Issue 11, items 11 (quotas) and 12 (an imported stdio entry stays with the agent that claimed it). */
describe("agent binding and quotas", () => {
  let sb: ConsoleHandle;
  let api: Api;
  const agents: RunningAgent[] = [];
  const stdio = { command: process.execPath, args: [EVERYTHING, "stdio"] };
  const logs = () => `--- agents ---\n${agents.map((a) => a.output()).join("\n---\n")}\n--- console ---\n${sb.logs().slice(-4000)}`;
  const serverNames = async () => ((await api("GET", "/api/v1/servers")).body.items as { name: string }[]).map((s) => s.name).sort();

  beforeAll(async () => {
    sb = await startConsole({ env: { SWITCHBOARD_MAX_SERVERS: "4", SWITCHBOARD_MAX_AGENT_SERVERS: "2" } });
    ({ api } = await setupOwner(sb.url));
  });
  afterAll(async () => {
    for (const agent of agents) await agent.stop("SIGKILL");
    await sb?.stop();
  });

  it("binds an imported entry to the first agent that claims it; an admin re-binds it", async () => {
    const imported = await api("POST", "/api/v1/servers/import", { config: JSON.stringify({ mcpServers: { everything: stdio } }) });
    expect(imported.body.created.map((s: { kind: string }) => s.kind)).toEqual(["stdio"]);
    const id = await serverId(api, "everything");

    // The first agent announces three names; only two fit its quota.
    const first = await pairNewAgent(api, sb.url, "first");
    agents.push(startAgent(first.home, { mcpServers: { everything: stdio, extra1: stdio, extra2: stdio } }));
    await waitForAgent(api, first.agentId, "online", 20_000, logs);
    expect(await serverNames()).toEqual(["everything", "extra1"]);
    expect((await api("GET", `/api/v1/servers/${id}`)).body.server.agentId).toBe(first.agentId);

    // A second agent announcing the same name does not take it over.
    const second = await pairNewAgent(api, sb.url, "second");
    let secondAgent = startAgent(second.home, { mcpServers: { everything: stdio } });
    agents.push(secondAgent);
    await waitForAgent(api, second.agentId, "online", 20_000, logs);
    await waitFor(() => /another agent serves this name/.test(secondAgent.output()), 10_000, logs);
    expect((await api("GET", `/api/v1/servers/${id}`)).body.server.agentId).toBe(first.agentId);
    expect((await callTool(api, id, "echo", { message: "via first" })).body.call.status).toBe("ok");

    // Only an admin re-binds; the new agent serves it from its next hello.
    const rebound = await api("PUT", `/api/v1/servers/${id}/agent`, { agentId: second.agentId });
    expect(rebound.status).toBe(200);
    expect(rebound.body.server.agentId).toBe(second.agentId);
    await secondAgent.stop();
    secondAgent = startAgent(second.home, { mcpServers: { everything: stdio } });
    agents.push(secondAgent);
    await waitFor(async () => (await callTool(api, id, "echo", { message: "via second" })).body.call.status === "ok", 20_000, logs);
    const audit = (await api("GET", "/api/v1/audit?action=server.agent_bound")).body.items;
    expect(audit[0].details).toMatchObject({ from: "first", to: "second" });

    expect((await api("PUT", `/api/v1/servers/${id}/agent`, { agentId: "no-such-agent" })).status).toBe(422);
    const httpServer = await api("POST", "/api/v1/servers", { name: "remote", url: "http://127.0.0.1:9/mcp" });
    expect((await api("PUT", `/api/v1/servers/${httpServer.body.server.id}/agent`, { agentId: null })).status).toBe(400);
  });

  it("refuses servers past the workspace quota with the limit", async () => {
    // everything, extra1, remote: one more fits.
    expect((await api("POST", "/api/v1/servers", { name: "fourth", url: "http://127.0.0.1:9/mcp" })).status).toBe(201);
    const over = await api("POST", "/api/v1/servers", { name: "fifth", url: "http://127.0.0.1:9/mcp" });
    expect(over.status).toBe(409);
    expect(over.body.error.details).toEqual({ quota: "servers", limit: 4 });
    expect(over.body.error.message).toMatch(/limit of 4 servers/);
    const imported = await api("POST", "/api/v1/servers/import", { config: JSON.stringify({ mcpServers: { sixth: { url: "http://127.0.0.1:9/mcp" } } }) });
    expect(imported.body.created).toEqual([]);
    expect(imported.body.skipped[0].reason).toMatch(/limit of 4 servers/);
  });
});
