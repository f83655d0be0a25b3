import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";
import { startEverything, type RunningServer } from "../support/servers";
import { EVERYTHING, callTool, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

/** SQLite timestamps as Prisma writes them. */

describe("archive, restore, purge and retention", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let workspaceId: string;
  let everything: RunningServer;
  const agents: RunningAgent[] = [];
  const logs = () => `--- agents ---\n${agents.map((a) => a.output()).join("\n")}\n--- console ---\n${sb.logs().slice(-4000)}`;

  const addServer = async (name: string) => {
    const res = await api("POST", "/api/v1/servers", { name, url: everything.url, transport: "streamable-http" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.server.id as string;
  };
  const echo = async (id: string, message: string) => {
    const res = await callTool(api, id, "echo", { message });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.call.status).toBe("ok");
    return res.body.call.id as string;
  };

  beforeAll(async () => {
    everything = await startEverything("streamableHttp");
    // A short retention interval makes the scheduled purge observable without sleeping.
    sb = await startConsole({ env: { SWITCHBOARD_RETENTION_INTERVAL_MS: "300" } });
    const owner = await setupOwner(sb.url);
    api = owner.api;
    workspaceId = owner.workspace.id;
  });
  afterAll(async () => {
    await Promise.all(agents.map((a) => a.stop("SIGKILL")));
    await everything?.stop();
    await sb?.stop();
  });

  it("deleting a server archives it: permalinks stay, nothing talks to it, restore brings it back", async () => {
    const id = await addServer("kept");
    const callId = await echo(id, "before archive");

    expect((await api("DELETE", `/api/v1/servers/${id}`)).status).toBe(204);

    const call = await api("GET", `/api/v1/calls/${callId}`);
    expect(call.status).toBe(200);
    expect(call.body.call.serverArchivedAt).toEqual(expect.any(String));
    expect(JSON.stringify(call.body.call.result)).toContain("before archive");
    const server = await api("GET", `/api/v1/servers/${id}`);
    expect(server.status).toBe(200);
    expect(server.body.server).toMatchObject({ id, name: "kept", archivedAt: expect.any(String), archivedBy: expect.any(String) });
    expect((await api("GET", "/api/v1/servers")).body.items.map((s: { id: string }) => s.id)).not.toContain(id);
    const archived = (await api("GET", "/api/v1/servers?archived=1")).body.items;
    expect(archived).toEqual([expect.objectContaining({ id, name: "kept", callCount: 1, archivedAt: expect.any(String) })]);
    // History of an archived server stays readable.
    expect((await api("GET", `/api/v1/calls?serverId=${id}`)).body.items.map((c: { id: string }) => c.id)).toEqual([callId]);
    const sessions = await api("GET", `/api/v1/servers/${id}/sessions`);
    expect(sessions.status).toBe(200);
    expect(sessions.body.items[0]).toMatchObject({ status: "closed" });
    expect((await api("GET", `/api/v1/sessions/${sessions.body.items[0].id}/traffic`)).status).toBe(200);

    // Everything that would talk to it answers 409, from one check.
    for (const [method, route, body] of [
      ["POST", `/api/v1/servers/${id}/tools/call`, { name: "echo", arguments: { message: "x" } }],
      ["POST", `/api/v1/servers/${id}/connect`, undefined],
      ["POST", `/api/v1/servers/${id}/ping`, undefined],
      ["POST", `/api/v1/servers/${id}/resources/read`, { uri: "demo://resource/static/document/architecture.md" }],
      ["POST", `/api/v1/servers/${id}/prompts/get`, { name: "simple-prompt" }],
      ["GET", `/api/v1/servers/${id}/tools`, undefined],
      ["POST", `/api/v1/servers/${id}/complete`, { ref: { type: "ref/prompt", name: "complex-prompt" }, argument: { name: "temperature", value: "" } }],
      ["POST", `/api/v1/servers/${id}/resources/subscribe`, { uri: "demo://resource/static/document/architecture.md" }],
      ["POST", `/api/v1/servers/${id}/log-level`, { level: "debug" }],
      ["POST", `/api/v1/calls/${callId}/rerun`, undefined],
      ["POST", `/api/v1/calls/${callId}/app/tools/call`, { name: "echo", arguments: { message: "x" } }],
      ["PATCH", `/api/v1/servers/${id}`, { timeoutMs: 5000 }],
    ] as const) {
      const res = await api(method, route, body);
      expect(res.status, `${method} ${route}: ${JSON.stringify(res.body)}`).toBe(409);
      expect(res.body.error.message).toMatch(/"kept" is archived/);
    }
    expect((await api("GET", `/api/v1/calls?serverId=${id}`)).body.items).toHaveLength(1);

    const restored = await api("POST", `/api/v1/servers/${id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.server).toMatchObject({ id, archivedAt: null });
    expect((await api("GET", "/api/v1/servers")).body.items.map((s: { id: string }) => s.id)).toContain(id);
    await echo(id, "after restore");
    expect((await api("POST", `/api/v1/servers/${id}/restore`)).status).toBe(409);
  });

  it("frees an archived server's name for new and imported servers; restore refuses while it is taken", async () => {
    const first = await addServer("dup");
    expect((await api("POST", "/api/v1/servers", { name: "dup", url: everything.url })).status).toBe(409);
    await api("DELETE", `/api/v1/servers/${first}`);
    const second = await addServer("dup");
    expect(second).not.toBe(first);

    const imported = await api("POST", "/api/v1/servers/import", { config: JSON.stringify({ mcpServers: { dup: { url: everything.url } } }) });
    expect(imported.body.skipped).toEqual([{ name: "dup", reason: expect.stringMatching(/exists/) }]);
    await api("DELETE", `/api/v1/servers/${second}`);
    const again = await api("POST", "/api/v1/servers/import", { config: JSON.stringify({ mcpServers: { dup: { url: everything.url } } }) });
    expect(again.body.created.map((s: { name: string }) => s.name)).toEqual(["dup"]);

    const refused = await api("POST", `/api/v1/servers/${first}/restore`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/An active server is named "dup"/);
    expect((await api("GET", "/api/v1/servers?archived=1")).body.items.filter((s: { name: string }) => s.name === "dup")).toHaveLength(2);
  });

  it("purges an archived server only with the current number of calls", async () => {
    const id = await addServer("doomed");
    const calls = [await echo(id, "one"), await echo(id, "two")];
    const early = await api("POST", `/api/v1/servers/${id}/purge`, { confirm: 2 });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/not archived/);

    await api("DELETE", `/api/v1/servers/${id}`);
    const listed = (await api("GET", "/api/v1/servers?archived=1")).body.items.find((s: { id: string }) => s.id === id);
    expect(listed.callCount).toBe(2);
    expect((await api("POST", `/api/v1/servers/${id}/purge`, {})).status).toBe(400);
    const wrong = await api("POST", `/api/v1/servers/${id}/purge`, { confirm: 1 });
    expect(wrong.status).toBe(409);
    expect(wrong.body.error).toMatchObject({ code: "conflict", details: { calls: 2 } });
    expect(wrong.body.error.message).toMatch(/This deletes 2 calls/);
    expect((await api("GET", `/api/v1/calls/${calls[0]}`)).status).toBe(200);

    const purged = await api("POST", `/api/v1/servers/${id}/purge`, { confirm: listed.callCount });
    expect(purged.status).toBe(200);
    expect(purged.body).toEqual({ deletedCalls: 2 });
    for (const callId of calls) expect((await api("GET", `/api/v1/calls/${callId}`)).status).toBe(404);
    expect((await api("GET", `/api/v1/servers/${id}`)).status).toBe(404);
    expect(Number((await sb.db.get<{ n: number }>("SELECT count(*) AS n FROM mcp_session WHERE server_id = ?", id))!.n)).toBe(0);
    const audit = (await api("GET", `/api/v1/audit?action=server.purged&targetId=${id}`)).body.items;
    expect(audit).toEqual([expect.objectContaining({ action: "server.purged", details: { calls: 2 } })]);
  });

  it("revoking an agent archives its servers; pairing again adopts them back with their history", async () => {
    const config = { mcpServers: { relayed: { command: process.execPath, args: [EVERYTHING, "stdio"] } } };
    const first = await pairNewAgent(api, sb.url, "laptop");
    agents.push(startAgent(first.home, config));
    await waitForAgent(api, first.agentId, "online", 20_000, logs);
    const id = await serverId(api, "relayed");
    const callId = (await callTool(api, id, "echo", { message: "over the relay" })).body.call.id as string;

    // A member may revoke only the agents they paired.
    const member = await addMember("mia@example.com");
    const memberApi = apiClient(sb.url, member.token);
    const refused = await memberApi("DELETE", `/api/v1/agents/${first.agentId}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/only the agents they paired/);

    expect((await api("DELETE", `/api/v1/agents/${first.agentId}`)).status).toBe(204);
    await waitForAgent(api, first.agentId, "revoked");
    expect((await api("GET", `/api/v1/servers/${id}`)).body.server.archivedAt).toEqual(expect.any(String));
    expect((await api("GET", "/api/v1/servers")).body.items.map((s: { name: string }) => s.name)).not.toContain("relayed");
    expect((await api("GET", `/api/v1/calls/${callId}`)).body.call).toMatchObject({ serverId: id, serverArchivedAt: expect.any(String) });
    const revokedEvent = (await api("GET", `/api/v1/audit?action=agent.revoked&targetId=${first.agentId}`)).body.items[0];
    expect(revokedEvent.details).toEqual({ archivedServers: ["relayed"] });
    const paired = (await api("GET", `/api/v1/audit?action=agent.paired&targetId=${first.agentId}`)).body.items[0];
    expect(paired).toMatchObject({ actor: { type: "agent", id: first.agentId, name: "laptop" }, ip: expect.stringMatching(/127\.0\.0\.1/) });

    // Members revoke their own agents.
    const own = await pairNewAgent(memberApi, sb.url, "mia-laptop");
    expect((await memberApi("DELETE", `/api/v1/agents/${own.agentId}`)).status).toBe(204);

    const second = await pairNewAgent(api, sb.url, "laptop-again");
    agents.push(startAgent(second.home, config));
    await waitForAgent(api, second.agentId, "online", 20_000, logs);
    await waitFor(async () => (await api("GET", `/api/v1/servers/${id}`)).body.server.archivedAt === null, 10_000, logs);
    expect((await api("GET", `/api/v1/servers/${id}`)).body.server).toMatchObject({ name: "relayed", agentId: second.agentId });
    expect((await callTool(api, id, "echo", { message: "back again" })).body.call.status).toBe("ok");
    expect((await api("GET", `/api/v1/calls?serverId=${id}`)).body.items.map((c: { id: string }) => c.id)).toContain(callId);
  });

  it("purges calls and ended sessions older than the workspace's retention, and records it", async () => {
    const id = await addServer("retained");
    const old = [await echo(id, "old one"), await echo(id, "old two")];
    const oldSession = (await api("GET", `/api/v1/calls/${old[0]}`)).body.call.sessionId as string;
    await api("POST", `/api/v1/servers/${id}/disconnect`);
    const recent = await echo(id, "recent");
    // A collection run (a list step records no call) and an alert, both old enough to go too.
    const collection = (await api("POST", "/api/v1/collections", { name: "retained", steps: [{ serverId: id, method: "tools/list" }] })).body.collection;
    const runId = (await api("POST", `/api/v1/collections/${collection.id}/runs`, {})).body.run.id as string;
    await waitFor(async () => (await api("GET", `/api/v1/runs/${runId}`)).body.run.status !== "running");
    const alertId = crypto.randomUUID();
    await sb.db.run("INSERT INTO alert (id, workspace_id, event, text, path, created_at) VALUES (?, ?, 'failing', 'old', '/runs/x', ?)", alertId, workspaceId, new Date(Date.now() - 40 * 24 * 3600_000));
    // An old finished replay and load test go with the runs; a running one stays (its runner still writes to it).
    const [replayId, loadTestId, runningLoadTestId] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    const oldTime = new Date(Date.now() - 40 * 24 * 3600_000);
    await sb.db.batch([
      ["INSERT INTO replay (id, workspace_id, server_id, server_name, source, status, started_at) VALUES (?, ?, ?, 'retained', '{}', 'passed', ?)", replayId, workspaceId, id, oldTime],
      ["INSERT INTO load_test (id, workspace_id, config, label, status, started_at) VALUES (?, ?, '{}', 'old', 'completed', ?)", loadTestId, workspaceId, oldTime],
      ["INSERT INTO load_test (id, workspace_id, config, label, status, started_at, lease_until) VALUES (?, ?, '{}', 'old', 'running', ?, ?)", runningLoadTestId, workspaceId, oldTime, new Date(Date.now() + 24 * 3600_000)],
    ]);
    // The traffic recorder writes in the background: wait for the old session's messages.
    await waitFor(async () => (await api("GET", `/api/v1/sessions/${oldSession}/traffic?method=tools/call`)).body.items?.length >= 2);
    const longAgo = new Date(Date.now() - 40 * 24 * 3600_000);
    await sb.db.batch([
      ...old.map((callId): [string, ...unknown[]] => ['UPDATE "call" SET started_at = ? WHERE id = ?', longAgo, callId]),
      ["UPDATE mcp_session SET closed_at = ? WHERE id = ?", longAgo, oldSession],
      ["UPDATE collection_run SET started_at = ? WHERE id = ?", longAgo, runId],
      ["UPDATE workspace SET retention_days = 30 WHERE id = ?", workspaceId],
    ]);

    let event: any;
    await waitFor(async () => {
      event = (await api("GET", "/api/v1/audit?action=retention.purged")).body.items[0];
      return event !== undefined;
    }, 15_000, () => sb.logs().slice(-2000));
    expect(event).toMatchObject({ actor: { type: "system" }, target: { type: "workspace", id: workspaceId } });
    expect(event.details).toMatchObject({ retentionDays: 30, calls: 2, sessions: 1, runs: 3, alerts: 1, cutoff: expect.any(String) });
    expect(await sb.db.get("SELECT id FROM replay WHERE id = ?", replayId)).toBeUndefined();
    expect(await sb.db.get("SELECT id FROM load_test WHERE id = ?", loadTestId)).toBeUndefined();
    expect(await sb.db.get("SELECT id FROM load_test WHERE id = ?", runningLoadTestId)).toBeDefined();
    expect((await api("GET", `/api/v1/runs/${runId}`)).status).toBe(404);
    expect(await sb.db.get("SELECT id FROM alert WHERE id = ?", alertId)).toBeUndefined();
    expect(event.details.traffic).toBeGreaterThan(0);
    expect(Date.parse(event.details.cutoff)).toBeLessThan(Date.now() - 29 * 24 * 3600_000);
    for (const callId of old) expect((await api("GET", `/api/v1/calls/${callId}`)).status).toBe(404);
    expect((await api("GET", `/api/v1/calls/${recent}`)).status).toBe(200);
    expect((await api("GET", `/api/v1/sessions/${oldSession}/traffic`)).status).toBe(404);
    // Runs keep going every interval; only a run that deleted something leaves an event.
    const another = await echo(id, "another old one");
    await sb.db.run('UPDATE "call" SET started_at = ? WHERE id = ?', longAgo, another);
    let events: any[] = [];
    await waitFor(async () => {
      events = (await api("GET", "/api/v1/audit?action=retention.purged")).body.items;
      return events.length > 1;
    }, 15_000);
    expect(events).toHaveLength(2);
    expect(events[0].details).toMatchObject({ calls: 1, sessions: 0 });
    expect((await api("GET", `/api/v1/calls/${another}`)).status).toBe(404);
    await sb.db.run("UPDATE workspace SET retention_days = NULL WHERE id = ?", workspaceId);
  });

  /** A member with an API token, written straight into the database (invitations are another part). */
  async function addMember(email: string) {
    const userId = crypto.randomUUID();
    const token = await insertMember(sb.db, { workspaceId, userId, name: email.split("@")[0]!, email, role: "member" });
    return { userId, token };
  }
});
