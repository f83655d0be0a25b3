import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, onPostgres, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startBalancer, type Balancer } from "../support/balancer";
import { openEvents, type EventStream } from "../support/events";
import { nextPending, resultText } from "./interactions-support";
import { EVERYTHING, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = ReturnType<typeof apiClient>;
const LONG = "trigger-long-running-operation";

/**
 * Issue 12 §2, "done when": two consoles on one PostgreSQL database behind a balancer. An agent
 * connected to A serves calls made through B; B's browsers see A's events; killing A mid-call
 * leaves the call interrupted (seen through B) and the agent comes back through B; a third
 * instance starting interrupts nothing.
 */
describe.skipIf(!onPostgres)("two console instances sharing PostgreSQL", () => {
  const env = { SWITCHBOARD_HEARTBEAT_MS: "300", SWITCHBOARD_DIRECT_API: process.env.SWITCHBOARD_DIRECT_API ?? "1" };
  let a: ConsoleHandle;
  let b: ConsoleHandle;
  let c: ConsoleHandle | undefined;
  let balancer: Balancer;
  let agent: RunningAgent;
  let token: string;
  let apiA: Api;
  let apiB: Api;
  let eventsB: EventStream;
  let id: string;
  let agentId: string;

  const instanceOf = async (requestId: string) => (await b.db.get('SELECT instance_id FROM "call" WHERE request_id = ?', requestId))?.instance_id;
  const callByRequest = async (api: Api, requestId: string) =>
    ((await api("GET", "/api/v1/calls?limit=50")).body.items as { id: string; requestId: string; status: string }[]).find((x) => x.requestId === requestId);
  const instanceIds = async () => ((await b.db.all("SELECT id FROM instance ORDER BY started_at")) as { id: string }[]).map((r) => r.id);

  beforeAll(async () => {
    a = await startConsole({ env });
    b = await startConsole({ databaseUrl: a.databaseUrl, env, join: true });
    balancer = await startBalancer([a.url, b.url]);
    const owner = await setupOwner(a.url);
    token = owner.token;
    apiA = owner.api;
    apiB = apiClient(b.url, token);
    eventsB = await openEvents(b.url, token);
    // The agent dials the balancer, which sends it to A while A is up.
    const paired = await pairNewAgent(apiA, balancer.url, "cluster-agent");
    agentId = paired.agentId;
    agent = startAgent(paired.home, { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }, { grace: 0 });
    await waitForAgent(apiA, agentId, "online", 20_000, () => agent.output());
    id = await serverId(apiA, "everything");
  });
  afterAll(async () => {
    eventsB?.close();
    await agent?.stop("SIGKILL");
    await Promise.all([a?.stop({ crash: true }).catch(() => undefined), b?.stop(), c?.stop()]);
    await balancer?.close();
  });

  it("knows on B that the agent is connected to A, and B's calls to it run on A", async () => {
    await waitForAgent(apiB, agentId, "online", 10_000);
    const [idA, idB] = await instanceIds();
    const res = await apiB("POST", `/api/v1/servers/${id}/tools/call`, { name: "echo", arguments: { message: "through B" }, requestId: "via-b-call" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.call.status).toBe("ok");
    expect(JSON.stringify(res.body.call.result)).toContain("through B");
    expect(await instanceOf("via-b-call")).toBe(idA);
    expect(idB).not.toBe(idA);
    // One call recorded, not one per instance.
    expect((await b.db.all('SELECT id FROM "call" WHERE request_id = ?', "via-b-call")).length).toBe(1);
  });

  it("streams the progress of a call running on A to a browser watching B, with ids that resume on A", async () => {
    const from = eventsB.events.length;
    const res = await apiA("POST", `/api/v1/servers/${id}/tools/call`, { name: LONG, arguments: { duration: 1, steps: 3 }, requestId: "progress-on-a" });
    expect(res.body.call.status).toBe("ok");
    await eventsB.next((e) => e.type === "progress" && e.requestId === "progress-on-a" && e.progress === 3, { from });
    const seen = eventsB.events.slice(from).filter((e) => e.type === "progress" && e.requestId === "progress-on-a");
    expect(seen.map((e) => e.progress)).toEqual([1, 2, 3]);
    // An id handed out by B resumes on A: both hold the same events in the same order.
    const first = eventsB.events.findIndex((e, i) => i >= from && e.type === "progress" && e.requestId === "progress-on-a");
    const resumed = await openEvents(a.url, token, { lastEventId: eventsB.ids[first]! });
    try {
      await resumed.next((e) => e.type === "progress" && e.requestId === "progress-on-a" && e.progress === 3);
      expect(resumed.events[0]).not.toEqual({ type: "reset" });
      expect(resumed.events.filter((e) => e.type === "progress" && e.requestId === "progress-on-a").map((e) => e.progress)).toEqual([2, 3]);
    } finally {
      resumed.close();
    }
  });

  it("cancels through B a call running on A", async () => {
    const running = apiB("POST", `/api/v1/servers/${id}/tools/call`, { name: LONG, arguments: { duration: 30, steps: 30 }, requestId: "cancel-via-b" });
    await waitFor(async () => (await callByRequest(apiB, "cancel-via-b"))?.status === "pending");
    const cancel = await apiB("POST", "/api/v1/calls/cancel", { requestId: "cancel-via-b" });
    expect(cancel.status).toBe(200);
    expect((await running).body.call.status).toBe("cancelled");
  });

  it("gateway: a host connecting through B to the agent's server gets its session on A, and B passes every request on", async () => {
    await apiA("PUT", `/api/v1/servers/${id}/exposure`, { enabled: true });
    const secret = (await apiA("POST", "/api/v1/tokens", { name: "cluster-host", scopes: ["gateway"] })).body.secret as string;
    const { path } = (await apiB("GET", `/api/v1/servers/${id}/exposure`)).body.exposure;
    const client = new Client({ name: "cluster-host", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL(`${b.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("echo");
      expect((await client.callTool({ name: "echo", arguments: { message: "via B" } })).content).toEqual([{ type: "text", text: "Echo: via B" }]);
      await transport.terminateSession();
    } finally {
      await client.close();
    }
    const [first] = await instanceIds();
    const row = await b.db.get("SELECT instance_id, end_reason FROM gateway_connection WHERE client_name = ?", "cluster-host");
    expect(row).toMatchObject({ instance_id: first, end_reason: "closed" });
  });

  it("a person watching B answers a server request that waits on A", async () => {
    const from = eventsB.events.length;
    const running = apiB("POST", `/api/v1/servers/${id}/tools/call`, { name: "trigger-elicitation-request", arguments: {} });
    const pending = await nextPending(apiB, eventsB, from);
    // Watched through B, so A treats it as attended and waits for the person.
    expect(pending).toMatchObject({ kind: "elicitation-form", status: "pending", attended: true });
    const listed = await apiB("GET", "/api/v1/interactions?status=pending");
    expect(listed.body.items.map((i: { id: string }) => i.id)).toContain(pending.id);
    const ok = await apiB("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "accept", content: { name: "Cluster Carla", integer: 4 } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(resultText((await running).body.call)).toContain("Name: Cluster Carla");
  });

  it("a token revoked or a server archived through A is refused by B at once, though B had them cached", async () => {
    const created = await apiA("POST", "/api/v1/tokens", { name: "short-lived" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const withToken = apiClient(b.url, created.body.secret);
    const scratch = (await apiA("POST", "/api/v1/servers", { name: "scratch", url: "http://127.0.0.1:9/mcp" })).body.server.id as string;
    // B caches the token and the server row (the call itself fails: nothing listens there).
    expect((await withToken("POST", `/api/v1/servers/${scratch}/tools/call`, { name: "echo", arguments: {} })).status).toBe(200);
    expect((await apiA("DELETE", `/api/v1/servers/${scratch}`)).status).toBeLessThan(300);
    const archived = await withToken("POST", `/api/v1/servers/${scratch}/tools/call`, { name: "echo", arguments: {} });
    expect(archived.status, JSON.stringify(archived.body)).toBe(409);
    expect((await apiA("DELETE", `/api/v1/tokens/${created.body.token.id}`)).status).toBe(204);
    expect((await withToken("GET", "/api/v1/servers")).status).toBe(401);
  });

  it("when A dies mid-call, B marks the call interrupted and the agent reconnects to B", async () => {
    const [idA, idB] = await instanceIds();
    const from = eventsB.events.length;
    const running = apiB("POST", `/api/v1/servers/${id}/tools/call`, { name: LONG, arguments: { duration: 30, steps: 30 }, requestId: "a-dies-mid-call" });
    await eventsB.next((e) => e.type === "progress" && e.requestId === "a-dies-mid-call", { from });
    await a.stop({ crash: true });
    // B forwarded the request: its caller gets a clear 503, not a hang.
    const answer = await running;
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe("unavailable");
    await waitFor(async () => (await callByRequest(apiB, "a-dies-mid-call"))?.status === "interrupted", 10_000);
    expect(await instanceOf("a-dies-mid-call")).toBe(idA);
    // The agent dials the balancer again and lands on B.
    await waitFor(async () => {
      const res = await apiB("POST", `/api/v1/servers/${id}/tools/call`, { name: "echo", arguments: { message: "after A" }, requestId: `after-a-${Date.now()}` });
      return res.body.call?.status === "ok";
    }, 30_000, () => agent.output());
    const last = (await b.db.get('SELECT instance_id FROM "call" WHERE request_id LIKE ? ORDER BY started_at DESC LIMIT 1', "after-a-%"))!;
    expect(last.instance_id).toBe(idB);
  });

  it("a third instance starting leaves B's running call alone", async () => {
    // Long enough to outlast a console start-up on two busy cores (files run two at a time).
    const running = apiB("POST", `/api/v1/servers/${id}/tools/call`, { name: LONG, arguments: { duration: 30, steps: 10 }, requestId: "while-c-starts" });
    await waitFor(async () => (await callByRequest(apiB, "while-c-starts"))?.status === "pending");
    c = await startConsole({ databaseUrl: b.databaseUrl, env, join: true });
    expect((await callByRequest(apiClient(c.url, token), "while-c-starts"))?.status).toBe("pending");
    expect((await running).body.call.status).toBe("ok");
  });

  it("when the channel between instances drops, browsers are told to refetch and events flow again once it is back", async () => {
    const eventsC = await openEvents(c!.url, token);
    try {
      const fromB = eventsB.events.length;
      const killed = await b.db.all("SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = 'switchboard-channel' AND datname = current_database()");
      expect(killed.length).toBe(2);
      await eventsB.next((e) => e.type === "reset", { from: fromB });
      await waitFor(() => b.logs().includes("instance channel back up") && c!.logs().includes("instance channel back up"), 15_000);
      // C forwards to B, where the agent is now; C's watcher sees the call's progress.
      const fromC = eventsC.events.length;
      const apiC = apiClient(c!.url, token);
      await waitFor(async () => (await apiC("GET", `/api/v1/agents/${agentId}`)).body.agent?.status === "online", 10_000);
      const res = await apiC("POST", `/api/v1/servers/${id}/tools/call`, { name: LONG, arguments: { duration: 1, steps: 2 }, requestId: "after-the-drop" });
      expect(res.body.call.status).toBe("ok");
      await eventsC.next((e) => e.type === "progress" && e.requestId === "after-the-drop" && e.progress === 2, { from: fromC });
    } finally {
      eventsC.close();
    }
  });
});
