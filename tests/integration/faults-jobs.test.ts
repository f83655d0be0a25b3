import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startPostgres, type PostgresServer } from "../support/postgres";

type Claim = { due_at: Date | string; instance_id: string; finished_at: Date | string | null; outcome: string | null };
const ms = (d: Date | string) => new Date(d).getTime();

/**
 * Issue 39: the scheduler through its database going away. A claimed job's due times that pass
 * during the outage are simply not claimed (no run without its claim); the first due time after
 * the database is back is claimed and run, and every one after it, with no restart.
 */
describe.skipIf(!onPostgres)("background jobs through a PostgreSQL outage", () => {
  let pg: PostgresServer;
  let sb: ConsoleHandle;
  const claims = () => sb.db.all<Claim>(`SELECT "due_at", "instance_id", "finished_at", "outcome" FROM "job_claim" WHERE "job" = 'retention' ORDER BY "due_at"`);

  beforeAll(async () => {
    pg = await startPostgres();
    const databaseUrl = await pg.createMigratedDatabase("sb_faults_jobs");
    sb = await startConsole({ databaseUrl, env: { SWITCHBOARD_RETENTION_INTERVAL_MS: "500", SWITCHBOARD_JOB_POLL_MS: "100", SWITCHBOARD_MONITORS: "off" } });
  }, 120_000);
  afterAll(async () => {
    await sb?.stop().catch(() => undefined);
    await pg?.stop();
  });

  it("claims and runs each due time again once the database is back", async () => {
    await waitFor(async () => (await claims()).filter((c) => c.finished_at).length >= 2);
    await pg.stop({ keep: true });
    const downAt = Date.now();
    // The scheduler says so and keeps polling.
    await waitFor(() => sb.logs().includes("[jobs] retention: the database is unreachable; will retry"), 20_000);
    await pg.start();
    const upAt = Date.now();
    await waitFor(() => sb.logs().includes("[jobs] retention: the database is back"), 30_000);
    // Once when it began, once when it ended: not at every poll.
    expect(sb.logs().split("[jobs] retention: the database is unreachable").length - 1).toBe(1);
    await waitFor(async () => (await claims()).filter((c) => ms(c.due_at) > upAt && c.finished_at).length >= 3, 30_000);
    const after = (await claims()).filter((c) => ms(c.due_at) > upAt);
    const dues = after.map((c) => ms(c.due_at));
    expect(dues.slice(1).map((d, i) => d - dues[i]!).every((gap) => gap === 500)).toBe(true);
    expect(after.filter((c) => c.finished_at).every((c) => c.outcome === "ok")).toBe(true);
    // Nothing claimed while it was down stands unfinished for good: any such claim is this instance's and was finished or is being retried.
    expect((await claims()).filter((c) => ms(c.due_at) > downAt && ms(c.due_at) < upAt - 1000 && !c.finished_at)).toEqual([]);
    expect(await sb.db.get<{ ok: number }>("SELECT 1 AS ok")).toEqual({ ok: 1 });
  }, 90_000);
});
