import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";
import { startEverything, type RunningServer } from "../support/servers";
import { startSmtp } from "../support/smtp";

type Api = ReturnType<typeof apiClient>;

/** A webhook receiver on 127.0.0.1 keeping every JSON body it is sent. */
async function startReceiver() {
  const bodies: any[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      bodies.push({ contentType: req.headers["content-type"], ...JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/hook`, port, bodies, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const finishedRuns = async (api: Api, monitorId: string) => ((await api("GET", `/api/v1/monitors/${monitorId}/runs?limit=500`)).body.items as any[]).filter((r) => r.status !== "running");
const ticksOf = async (api: Api, monitorId: string) => ((await api("GET", `/api/v1/monitors/${monitorId}/ticks?limit=500`)).body.items as any[]).reverse();

/**
 * Issue 30: monitors (a collection on a schedule, each tick once, skipped behind a slow run) and
 * their alerts (once per incident, by webhook, mail and in the console). The console's outbound
 * policy is `public` with only 127.0.0.1 allowed, so a webhook on 127.0.0.2 is refused.
 */
describe("monitors and alerts", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let api: Api;
  let serverId = "";
  let steady = "";
  const as: Record<"admin" | "member" | "other" | "viewer", Api> = {} as never;

  const echo = (message: string, expected = `Echo: ${message}`) => ({ serverId, method: "tools/call", name: "echo", arguments: { message }, assert: [{ kind: "json", path: "/content/0/text", equals: expected }] });
  const collection = async (name: string, steps: unknown[]) => (await api("POST", "/api/v1/collections", { name, steps })).body.collection.id as string;

  beforeAll(async () => {
    [smtp, receiver, everything] = await Promise.all([startSmtp(), startReceiver(), startEverything("streamableHttp")]);
    sb = await startConsole({
      env: { SWITCHBOARD_MONITOR_POLL_MS: "200", SWITCHBOARD_SMTP_URL: smtp.url, SWITCHBOARD_NETWORK_POLICY: "public", SWITCHBOARD_ALLOWED_NETWORKS: "127.0.0.1/32" },
    });
    const owner = await setupOwner(sb.url);
    api = owner.api;
    expect((await api("PATCH", "/api/v1/workspace", { allowedNetworks: ["127.0.0.1/32"] })).status).toBe(200);
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    for (const [key, role] of [["admin", "admin"], ["member", "member"], ["other", "member"], ["viewer", "viewer"]] as const) {
      const token = await insertMember(sb.db, { workspaceId: owner.workspace.id, userId: `user-${key}`, name: `A ${key}`, email: `${key}@example.com`, role });
      as[key] = apiClient(sb.url, token);
    }
    // Runs every 5 s while the other tests run; the last test counts its ticks.
    const created = await api("POST", "/api/v1/monitors", { collectionId: await collection("steady", [echo("steady")]), schedule: { everySeconds: 5 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    steady = created.body.monitor.id;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([sb?.stop(), everything?.stop(), smtp?.close(), receiver?.close()]);
  });

  it("creates, reads, changes and deletes monitors in the contract's shapes; bad input is a 4xx in the error shape", async () => {
    const collectionId = await collection("crud", [echo("crud")]);
    const hook = "https://hooks.slack.com/services/T000/B000/secret-token";
    const created = await api("POST", "/api/v1/monitors", { collectionId, schedule: { everySeconds: 3600 }, alerts: { mail: ["ops@example.com"], webhooks: [hook], maxDurationMs: 5000 } });
    expect(created.status).toBe(201);
    const m = created.body.monitor;
    expect(m).toMatchObject({
      name: "crud", collectionId, collectionName: "crud", environment: null, schedule: { everySeconds: 3600 }, enabled: true, createdByName: "Ada Owner",
      alerts: { mail: ["ops@example.com"], webhooks: ["https://hooks.slack.com/…"], maxDurationMs: 5000 }, lastRun: null, state: "unknown", openIncident: null, lastSkip: null,
    });
    expect(new Date(m.nextRunAt).getTime() % 3_600_000).toBe(0);
    const stored = await sb.db.get<{ webhooks: string }>("SELECT webhooks FROM monitor WHERE id = ?", m.id);
    expect(stored!.webhooks).not.toContain("hooks.slack.com");
    expect((await api("GET", "/api/v1/monitors")).body.items.map((i: any) => i.id)).toContain(m.id);
    expect((await as.viewer("GET", `/api/v1/monitors/${m.id}`)).body.monitor.id).toBe(m.id);

    const paused = await api("PATCH", `/api/v1/monitors/${m.id}`, { name: "renamed", enabled: false });
    expect(paused.body.monitor).toMatchObject({ name: "renamed", enabled: false, nextRunAt: null, alerts: { webhooks: ["https://hooks.slack.com/…"] } });
    const cron = await api("PATCH", `/api/v1/monitors/${m.id}`, { enabled: true, schedule: { cron: "0 9 * * *", timeZone: "Asia/Kolkata" }, alerts: { webhooks: [] } });
    expect(cron.body.monitor).toMatchObject({ schedule: { cron: "0 9 * * *", timeZone: "Asia/Kolkata" }, alerts: { webhooks: [], mail: ["ops@example.com"] } });
    const next = new Date(cron.body.monitor.nextRunAt);
    expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([3, 30]);

    const refused = async (body: unknown, status: number, message: RegExp) => {
      const res = await api("POST", "/api/v1/monitors", body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error).toMatchObject({ code: expect.any(String), message: expect.stringMatching(message) });
    };
    await refused({ collectionId, schedule: { cron: "not a cron", timeZone: "UTC" } }, 422, /^schedule\.cron: /);
    await refused({ collectionId, schedule: { cron: "*/5 * * * *", timeZone: "Mars/Olympus" } }, 422, /^schedule\.timeZone: .*Mars\/Olympus/);
    await refused({ collectionId, schedule: { everySeconds: 4 } }, 400, /^schedule\.everySeconds: /);
    await refused({ collectionId, schedule: { everySeconds: 5, cron: "* * * * *" } }, 400, /^schedule: /);
    await refused({ collectionId: "no-such-collection", schedule: { everySeconds: 60 } }, 422, /^collectionId: no collection/);
    await refused({ collectionId, schedule: { everySeconds: 60 }, alerts: { webhooks: ["ftp://example.com/x"] } }, 400, /^alerts\.webhooks\.0: /);

    expect((await api("DELETE", `/api/v1/monitors/${m.id}`)).status).toBe(204);
    const gone = await api("GET", `/api/v1/monitors/${m.id}`);
    expect([gone.status, gone.body.error.code]).toEqual([404, "not_found"]);
  });

  it("lets viewers read, members change their own and admins any", async () => {
    const collectionId = await collection("roles", [echo("roles")]);
    const body = { collectionId, schedule: { everySeconds: 3600 } };
    expect((await as.viewer("POST", "/api/v1/monitors", body)).status).toBe(403);
    const own = await as.member("POST", "/api/v1/monitors", body);
    expect(own.status).toBe(201);
    const id = own.body.monitor.id;
    expect((await as.viewer("GET", "/api/v1/monitors")).status).toBe(200);
    expect((await as.viewer("GET", `/api/v1/monitors/${id}/runs`)).body).toEqual({ items: [] });
    expect((await as.viewer("GET", `/api/v1/monitors/${id}/incidents`)).body).toEqual({ items: [] });
    expect((await as.viewer("GET", "/api/v1/alerts")).status).toBe(200);
    expect((await as.viewer("PATCH", `/api/v1/monitors/${id}`, { name: "no" })).status).toBe(403);
    const other = await as.other("PATCH", `/api/v1/monitors/${id}`, { name: "no" });
    expect([other.status, other.body.error.code]).toEqual([403, "forbidden"]);
    expect((await as.member("PATCH", `/api/v1/monitors/${id}`, { name: "mine" })).body.monitor.name).toBe("mine");
    expect((await as.admin("PATCH", `/api/v1/monitors/${id}`, { name: "admin's" })).body.monitor.name).toBe("admin's");
    expect((await as.other("DELETE", `/api/v1/monitors/${id}`)).status).toBe(403);
    expect((await as.member("DELETE", `/api/v1/monitors/${id}`)).status).toBe(204);
  });

  it("alerts once when a step fails, once when it recovers and once when a run is over budget", async () => {
    const collectionId = await collection("flaky", [echo("flaky", "Echo: something else")]);
    const refusedHook = `http://127.0.0.2:${receiver.port}/refused`;
    const created = await api("POST", "/api/v1/monitors", { collectionId, schedule: { everySeconds: 5 }, alerts: { mail: ["ops@example.com"], webhooks: [receiver.url, refusedHook] } });
    const id = created.body.monitor.id;
    const events = (event: string) => receiver.bodies.filter((b) => b.monitor?.id === id && b.event === event);
    const runsAfter = async (count: number, status: string) => waitFor(async () => (await finishedRuns(api, id)).filter((r) => r.status === status).length >= count, 40_000);

    await runsAfter(3, "failed");
    expect(events("failing")).toHaveLength(1);
    const failing = events("failing")[0];
    const failedRuns = (await finishedRuns(api, id)).filter((r) => r.status === "failed");
    const first = failedRuns.at(-1);
    expect(failing).toMatchObject({ contentType: "application/json", event: "failing", monitor: { id, name: "flaky" }, run: { id: first.id, status: "failed" }, text: expect.stringContaining("flaky") });
    expect(failing.url).toMatch(new RegExp(`/runs/${first.id}$`));
    // The text names what failed, so a chat channel needs no click to know.
    expect(failing.text).toMatch(/First failure: step 1 "[^"]+": .*expected "Echo: something else"/);
    expect(first).toMatchObject({ origin: "monitor", collectionId, steps: [{ status: "failed" }] });
    expect(smtp.messages.filter((m) => m.to.includes("ops@example.com"))).toHaveLength(1);
    expect(smtp.messages[0]!.raw).toContain(`/runs/${first.id}`);

    const alerts = (await api("GET", "/api/v1/alerts")).body.items.filter((a: any) => a.monitor?.id === id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ event: "failing", path: `/runs/${first.id}`, runId: first.id, incidentId: expect.any(String) });
    expect(alerts[0].deliveries).toEqual([
      { channel: "console", target: "console", ok: true, detail: "listed" },
      { channel: "mail", target: "ops@example.com", ok: true, detail: "sent" },
      { channel: "webhook", target: `http://127.0.0.1:${receiver.port}/…`, ok: true, detail: "HTTP 200" },
      { channel: "webhook", target: `http://127.0.0.2:${receiver.port}/…`, ok: false, detail: expect.stringMatching(/Blocked by the outbound network policy/) },
    ]);
    const monitor = (await api("GET", `/api/v1/monitors/${id}`)).body.monitor;
    expect(monitor).toMatchObject({ state: "failing", openIncident: { kind: "failing", endedAt: null } });
    expect(monitor.openIncident.runIds.length).toBeGreaterThanOrEqual(3);
    expect(monitor.openIncident.runIds).toContain(first.id);

    // The fix: the assertion now expects what the server answers.
    expect((await api("PATCH", `/api/v1/collections/${collectionId}`, { steps: [echo("flaky")] })).status).toBe(200);
    await runsAfter(2, "passed");
    expect(events("recovered")).toHaveLength(1);
    expect(events("failing")).toHaveLength(1);
    const incidents = (await api("GET", `/api/v1/monitors/${id}/incidents`)).body.items;
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ kind: "failing", endedAt: expect.any(String), runIds: expect.arrayContaining([first.id]) });
    expect((await api("GET", `/api/v1/monitors/${id}`)).body.monitor).toMatchObject({ state: "passing", openIncident: null });

    // A budget of 1 ms: every run is over it, one alert.
    expect((await api("PATCH", `/api/v1/monitors/${id}`, { alerts: { maxDurationMs: 1 } })).body.monitor.alerts).toMatchObject({ maxDurationMs: 1, webhooks: [`http://127.0.0.1:${receiver.port}/…`, `http://127.0.0.2:${receiver.port}/…`] });
    await waitFor(() => events("slow").length > 0, 20_000);
    const passedSoFar = (await finishedRuns(api, id)).filter((r) => r.status === "passed").length;
    await runsAfter(passedSoFar + 2, "passed");
    expect(events("slow")).toHaveLength(1);
    expect(events("recovered")).toHaveLength(1);
    expect(smtp.messages.filter((m) => m.to.includes("ops@example.com"))).toHaveLength(3);
    const uptime = (await api("GET", `/api/v1/monitors/${id}/uptime?hours=1`)).body;
    expect(uptime).toMatchObject({ hours: 1, successRate: expect.any(Number), p50Ms: expect.any(Number), p95Ms: expect.any(Number) });
    expect(uptime.runs).toBe(uptime.buckets.reduce((n: number, b: any) => n + b.runs, 0));
    expect(uptime.incidents.map((i: any) => i.kind).sort()).toEqual(["failing", "slow"]);
    await api("PATCH", `/api/v1/monitors/${id}`, { enabled: false });
  }, 120_000);

  it("skips a tick while the previous run is still running, and never runs two at once", async () => {
    const collectionId = await collection("slow", [{ serverId, method: "tools/call", name: "trigger-long-running-operation", arguments: { duration: 7, steps: 2 } }]);
    const id = (await api("POST", "/api/v1/monitors", { collectionId, schedule: { everySeconds: 5 } })).body.monitor.id;
    // While a run is in progress the monitor keeps the state its last settled run gave it.
    let during: any = null;
    await waitFor(async () => {
      // A run had finished before this read, so the one running is a later one.
      const settled = (await finishedRuns(api, id)).length;
      const monitor = (await api("GET", `/api/v1/monitors/${id}`)).body.monitor;
      if (settled >= 1 && monitor.lastRun?.status === "running") during = monitor;
      return during !== null;
    }, 40_000);
    expect(during.state).toBe("passing");
    await waitFor(async () => (await ticksOf(api, id)).filter((t) => t.outcome === "skipped").length >= 1 && (await finishedRuns(api, id)).length >= 2, 40_000);
    await api("PATCH", `/api/v1/monitors/${id}`, { enabled: false });
    // A tick is recorded before its run starts, and names the run once it has.
    await waitFor(async () => (await ticksOf(api, id)).every((t) => t.outcome === "skipped" || t.runId), 10_000);
    const ticks = await ticksOf(api, id);
    const skipped = ticks.filter((t) => t.outcome === "skipped");
    expect(skipped[0]).toMatchObject({ reason: "the previous run was still running", runId: null });
    const runs = ((await api("GET", `/api/v1/monitors/${id}/runs`)).body.items as any[]).reverse();
    for (let i = 1; i < runs.length; i++) expect(new Date(runs[i].startedAt).getTime()).toBeGreaterThanOrEqual(new Date(runs[i - 1].finishedAt).getTime());
    expect(runs.map((r) => r.id).sort()).toEqual(ticks.filter((t) => t.outcome === "ran").map((t) => t.runId).sort());
  }, 60_000);

  it("ran each 5 s tick of the steady monitor exactly once, one run per tick", async () => {
    await waitFor(async () => (await ticksOf(api, steady)).length >= 4, 30_000);
    await api("PATCH", `/api/v1/monitors/${steady}`, { enabled: false });
    await waitFor(async () => (await ticksOf(api, steady)).every((t) => t.runId), 10_000);
    const ticks = await ticksOf(api, steady);
    await waitFor(async () => (await finishedRuns(api, steady)).length === ticks.length, 20_000);
    const due = ticks.map((t) => new Date(t.dueAt).getTime());
    expect(due.slice(1).map((d, i) => d - due[i]!)).toEqual(due.slice(1).map(() => 5000));
    expect(ticks.every((t) => t.outcome === "ran")).toBe(true);
    const runs = await finishedRuns(api, steady);
    expect(runs.map((r) => r.id).sort()).toEqual(ticks.map((t) => t.runId).sort());
    expect(runs.every((r) => r.status === "passed" && r.origin === "monitor")).toBe(true);

    // A monitor's runs and their calls are their own view: people's lists leave them out.
    const collectionId = (await api("GET", `/api/v1/monitors/${steady}`)).body.monitor.collectionId;
    const runsOf = async (query = "") => ((await api("GET", `/api/v1/collections/${collectionId}/runs${query}`)).body.items as any[]).map((r) => r.id);
    expect(await runsOf()).toEqual([]);
    const lastRun = async () => (await api("GET", `/api/v1/collections/${collectionId}`)).body.collection.lastRun;
    expect(await lastRun()).toBeNull();
    const mine = (await api("POST", `/api/v1/collections/${collectionId}/runs`, {})).body.run.id;
    await waitFor(async () => (await api("GET", `/api/v1/runs/${mine}`)).body.run.status !== "running", 20_000);
    expect(await runsOf()).toEqual([mine]);
    expect((await lastRun()).id).toBe(mine);
    expect((await runsOf("?origin=monitor&limit=200")).sort()).toEqual(runs.map((r) => r.id).sort());
    expect(await runsOf("?origin=api")).toEqual([mine]);
    expect((await runsOf("?origin=any&limit=200")).sort()).toEqual([mine, ...runs.map((r) => r.id)].sort());
    expect((await api("GET", `/api/v1/collections/${collectionId}/runs?origin=robot`)).status).toBe(400);
    const stepCalls = runs.map((r) => r.steps[0].callId as string);
    const myCall = (await api("GET", `/api/v1/runs/${mine}`)).body.run.steps[0].callId as string;
    const callIds = async (query: string) => ((await api("GET", `/api/v1/calls?name=echo&limit=200${query}`)).body.items as any[]).map((c) => c.id);
    const people = await callIds("");
    expect(people).toContain(myCall);
    expect(people.filter((c) => stepCalls.includes(c))).toEqual([]);
    expect(await callIds("&origin=monitor")).toEqual(expect.arrayContaining(stepCalls));
    expect((await api("GET", `/api/v1/calls/${stepCalls[0]}`)).body.call.origin).toBe("monitor");
    expect((await api("GET", `/api/v1/calls/${myCall}`)).body.call.origin).toBe("collection");
  }, 60_000);

  it("runs as its creator: a creator who is a viewer now gets the ticks skipped, with the reason", async () => {
    const collectionId = await collection("demoted", [echo("demoted")]);
    const id = (await as.other("POST", "/api/v1/monitors", { collectionId, schedule: { everySeconds: 5 }, enabled: false })).body.monitor.id;
    await sb.db.run("UPDATE member SET role = 'viewer' WHERE user_id = ?", "user-other");
    expect((await as.admin("PATCH", `/api/v1/monitors/${id}`, { enabled: true })).body.monitor.enabled).toBe(true);
    await waitFor(async () => (await ticksOf(api, id)).length >= 1, 20_000);
    await api("PATCH", `/api/v1/monitors/${id}`, { enabled: false });
    const [tick] = await ticksOf(api, id);
    expect(tick).toMatchObject({ outcome: "skipped", runId: null, reason: "its creator (A other) is a viewer now and cannot run collections" });
    expect((await api("GET", `/api/v1/monitors/${id}`)).body.monitor.lastSkip).toEqual({ at: tick.dueAt, reason: tick.reason });
    expect((await api("GET", `/api/v1/monitors/${id}/runs`)).body.items).toEqual([]);
  }, 40_000);
});
