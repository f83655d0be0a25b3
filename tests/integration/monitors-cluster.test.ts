import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, onPostgres, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;
type Tick = { dueAt: string; instanceId: string; outcome: string; runId: string | null };

/**
 * Issue 30, "done when": a monitor every 5 s on two instances sharing PostgreSQL runs each tick
 * once (counted over a minute) and keeps running when the instance running it is killed.
 */
describe.skipIf(!onPostgres)("a monitor on two console instances sharing PostgreSQL", () => {
  const env = { SWITCHBOARD_HEARTBEAT_MS: "1000", SWITCHBOARD_MONITOR_POLL_MS: "200" };
  let consoles: ConsoleHandle[] = [];
  let everything: RunningServer;
  let apis: Api[] = [];
  let monitorId = "";
  /** Each console's instance id, read from a call made through it (calls record their instance). */
  let instanceIds: string[] = [];

  const ticks = async (api: Api) => ((await api("GET", `/api/v1/monitors/${monitorId}/ticks?limit=500`)).body.items as Tick[]).reverse();
  const runs = async (api: Api) => (await api("GET", `/api/v1/monitors/${monitorId}/runs?limit=500`)).body.items as { id: string; status: string }[];
  const span = (list: Tick[]) => (list.length ? new Date(list.at(-1)!.dueAt).getTime() - new Date(list[0]!.dueAt).getTime() : 0);

  beforeAll(async () => {
    everything = await startEverything("streamableHttp");
    const a = await startConsole({ env });
    const b = await startConsole({ databaseUrl: a.databaseUrl, env, join: true });
    consoles = [a, b];
    const owner = await setupOwner(a.url);
    apis = [owner.api, apiClient(b.url, owner.token)];
    const serverId = (await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    instanceIds = await Promise.all(
      apis.map(async (api, i) => {
        const call = (await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "who" }, requestId: `whoami-${i}` })).body.call;
        return (await a.db.get<{ instance_id: string }>('SELECT instance_id FROM "call" WHERE id = ?', call.id))!.instance_id;
      }),
    );
    const steps = [{ serverId, method: "tools/call", name: "echo", arguments: { message: "tick" } }];
    const collectionId = (await owner.api("POST", "/api/v1/collections", { name: "every 5 s", steps })).body.collection.id;
    monitorId = (await owner.api("POST", "/api/v1/monitors", { collectionId, schedule: { everySeconds: 5 } })).body.monitor.id;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([...consoles.map((c) => c.stop().catch(() => undefined)), everything?.stop()]);
  });

  it("runs each tick once over a minute, then on the survivor when the instance that ran the last tick is killed", async () => {
    const [apiA] = apis;
    await waitFor(async () => span(await ticks(apiA!)) >= 60_000, 90_000);
    const counted = await ticks(apiA!);
    const due = counted.map((t) => new Date(t.dueAt).getTime());
    // Each due time once, none missing between the first and the last.
    expect(due.slice(1).map((d, i) => d - due[i]!)).toEqual(due.slice(1).map(() => 5000));
    expect(counted.length).toBeGreaterThanOrEqual(13);
    expect(counted.every((t) => t.outcome === "ran")).toBe(true);
    // A tick is recorded before its run starts, and names the run once it has.
    await waitFor(async () => (await ticks(apiA!)).slice(0, counted.length).every((t) => t.runId), 10_000);
    await waitFor(async () => (await runs(apiA!)).filter((r) => r.status !== "running").length >= counted.length, 30_000);
    const ranIds = new Set((await ticks(apiA!)).slice(0, counted.length).map((t) => t.runId));
    const listed = await runs(apiA!);
    expect(listed.filter((r) => ranIds.has(r.id)).length).toBe(counted.length);
    expect(listed.filter((r) => ranIds.has(r.id)).every((r) => r.status === "passed")).toBe(true);

    // Kill (SIGKILL) the instance that ran the last tick: the next ticks run on the other.
    expect(counted.filter((t) => !instanceIds.includes(t.instanceId))).toEqual([]);
    const last = (await ticks(apiA!)).at(-1)!;
    const victim = instanceIds.indexOf(last.instanceId);
    expect(victim).toBeGreaterThanOrEqual(0);
    const survivorApi = apis[1 - victim]!;
    const survivorId = instanceIds[1 - victim]!;
    await consoles[victim]!.stop({ crash: true });
    const killedAt = Date.now();
    await waitFor(async () => (await ticks(survivorApi)).filter((t) => new Date(t.dueAt).getTime() > killedAt).length >= 2, 45_000);
    const after = (await ticks(survivorApi)).filter((t) => new Date(t.dueAt).getTime() > killedAt);
    expect(after.map((t) => [t.instanceId, t.outcome])).toEqual(after.map(() => [survivorId, "ran"]));
    await waitFor(async () => {
      const finished = (await runs(survivorApi)).filter((r) => after.some((t) => t.runId === r.id));
      return finished.length === after.length && finished.every((r) => r.status === "passed");
    }, 30_000);
  }, 240_000);
});
