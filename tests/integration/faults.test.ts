import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { onPostgres, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

const LONG = "trigger-long-running-operation";

async function addServer(api: Api, url: string, name: string): Promise<string> {
  const created = await api("POST", "/api/v1/servers", { name, url, timeoutMs: 60_000 });
  expect(created.status).toBe(201);
  expect((await api("POST", `/api/v1/servers/${created.body.server.id}/connect`)).status).toBe(200);
  return created.body.server.id;
}

/** Starts a long call and resolves once its row is recorded pending; `done` settles with the HTTP answer. */
async function startLongCall(api: Api, serverId: string, duration: number) {
  const requestId = `fault-${Math.random().toString(36).slice(2)}`;
  const done = api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: LONG, arguments: { duration, steps: duration * 2 }, requestId }).catch(
    (err: unknown) => ({ status: 0, body: { error: String(err) } }),
  );
  await waitFor(async () => (await api("GET", "/api/v1/calls?status=pending")).body.items.some((c: { requestId: string }) => c.requestId === requestId));
  return { requestId, done };
}

async function rowOf(sb: ConsoleHandle, requestId: string) {
  return (await sb.db.get<{ status: string; error: string | null }>('SELECT status, error FROM "call" WHERE request_id = ?', requestId))!;
}

/** Issue 11, faults: a stop drains (15), an upstream that dies is noticed at once (14). */
describe("faults", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of cleanup.reverse()) await stop().catch(() => undefined);
  });

  it("a graceful stop lets running calls finish, then marks what outlasts the grace period interrupted", async () => {
    const everything = await startEverything("streamableHttp");
    cleanup.push(everything.stop);

    const patient = await startConsole({ env: { SWITCHBOARD_SHUTDOWN_GRACE_MS: "30000" } });
    cleanup.push(() => patient.stop());
    const { api } = await setupOwner(patient.url);
    const serverId = await addServer(api, everything.url, "drain");
    const { requestId, done } = await startLongCall(api, serverId, 2);
    await patient.stop();
    const answer = await done;
    expect(answer.status).toBe(200);
    expect(answer.body.call.status).toBe("ok");
    expect((await rowOf(patient, requestId)).status).toBe("ok");
    expect(patient.logs()).toMatch(/waiting up to 30000 ms for 1 request/);

    const hasty = await startConsole({ env: { SWITCHBOARD_SHUTDOWN_GRACE_MS: "200" } });
    cleanup.push(() => hasty.stop());
    const second = await setupOwner(hasty.url);
    const id2 = await addServer(second.api, everything.url, "cut");
    const cut = await startLongCall(second.api, id2, 30);
    await hasty.stop();
    await cut.done;
    // Read straight from the file before any restart could tidy up: never left pending.
    const row = await rowOf(hasty, cut.requestId);
    expect(row.status).toBe("interrupted");
    expect(JSON.parse(row.error!).kind).toBe("interrupted");
  }, 180_000);

  // SQLite's file lock; PostgreSQL locks rows and waits without blocking the event loop.
  it.skipIf(onPostgres)("a database locked by another process answers 503 with Retry-After, and a finished call is recorded once it is free", async () => {
    const everything = await startEverything("streamableHttp");
    cleanup.push(everything.stop);
    const sb = await startConsole();
    cleanup.push(() => sb.stop());
    const { api, token } = await setupOwner(sb.url);
    const serverId = await addServer(api, everything.url, "locked");
    const { requestId, done } = await startLongCall(api, serverId, 1);

    const locker = new Database(sb.dbFile);
    locker.exec("BEGIN IMMEDIATE");
    try {
      const write = await fetch(`${sb.url}/api/v1/tokens`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "while locked" }),
      });
      expect(write.status).toBe(503);
      expect(write.headers.get("retry-after")).toBe("2");
      const { error } = (await write.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("unavailable");
      expect(error.message).toMatch(/database is busy/);
      // Reads go on (WAL): the console is not frozen behind the lock.
      expect((await api("GET", "/api/v1/servers")).status).toBe(200);

      const answer = await done;
      expect(answer.status).toBe(503);
      expect(answer.body.error.details).toMatchObject({ status: "ok", retryAfter: 5 });
      expect(answer.body.error.message).toMatch(/finished \(ok\) but could not be recorded yet/);
    } finally {
      locker.exec("ROLLBACK");
      locker.close();
    }
    // Never left pending: the background retry records it once the lock is gone.
    await waitFor(async () => (await api("GET", `/api/v1/calls?status=ok`)).body.items.some((c: { requestId: string }) => c.requestId === requestId), 20_000);
    expect((await api("GET", "/api/v1/calls?status=pending")).body.items).toHaveLength(0);
  }, 120_000);

  it.runIf(onPostgres)("PostgreSQL: a table locked by another session answers 503 after the lock timeout; dropped connections are replaced", async () => {
    const sb = await startConsole({ env: { SWITCHBOARD_DB_LOCK_TIMEOUT_MS: "300" } });
    cleanup.push(() => sb.stop());
    const { api } = await setupOwner(sb.url);
    const locker = new pg.Client({ connectionString: sb.databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN; LOCK TABLE "api_token" IN ACCESS EXCLUSIVE MODE');
      const write = await api("POST", "/api/v1/tokens", { name: "while locked" });
      expect(write.status).toBe(503);
      expect(write.body.error).toMatchObject({ code: "unavailable" });
      expect(write.body.error.message).toMatch(/not available right now/);
      await locker.query("ROLLBACK");
      expect((await api("POST", "/api/v1/tokens", { name: "after the lock" })).status).toBe(201);

      // A failover or restart drops every connection of the pool: requests never answer 500, and
      // the console carries on with new connections without a restart.
      const { rows } = await locker.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
      expect(rows.length).toBeGreaterThan(0);
      const during = await api("GET", "/api/v1/tokens");
      expect([200, 503]).toContain(during.status);
      await waitFor(async () => (await api("GET", "/api/v1/tokens")).status === 200);
      expect((await api("GET", "/api/v1/tokens")).body.items.map((t: { name: string }) => t.name)).toContain("after the lock");
    } finally {
      await locker.end();
    }
  }, 120_000);

  describe.each(["streamableHttp", "sse"] as const)("an upstream (%s) that dies mid-call", (mode) => {
    let sb: ConsoleHandle;
    let api: Api;
    let upstream: RunningServer;
    let serverId: string;

    it("fails the call at once with a connection error, and the next call reconnects", async () => {
      sb = await startConsole();
      cleanup.push(() => sb.stop());
      api = (await setupOwner(sb.url)).api;
      upstream = await startEverything(mode);
      cleanup.push(() => upstream.stop());
      serverId = await addServer(api, upstream.url, `dies-${mode}`);

      const { done } = await startLongCall(api, serverId, 50);
      await upstream.stop();
      const answer = await done;
      expect(answer.status).toBe(200);
      // Not "timeout" (the call allows 60 s and the test would time out first): the real cause, now.
      expect(answer.body.call.status).toBe("error");
      expect(answer.body.call.error.kind).toBe("connection");
      expect(answer.body.call.error.message).toMatch(/went away|closed|refused|connect/i);

      upstream = await startEverything(mode, { port: upstream.port });
      cleanup.push(() => upstream.stop());
      const echo = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "back" } });
      expect(echo.body.call.status).toBe("ok");
      expect(JSON.stringify(echo.body.call.result)).toContain("back");
    }, 120_000);
  });
});

/**
 * Issue 11, item 18: the database's disk fills up (a small tmpfs, filled by a file) and frees again.
 * Needs permission to mount a tmpfs (root, as in CI); elsewhere the test says why it cannot run.
 */
describe("a full disk", () => {
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "sb-full-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", mountPoint]).status === 0;
  let sb: ConsoleHandle | undefined;
  let everything: RunningServer | undefined;
  afterAll(async () => {
    await sb?.stop();
    await everything?.stop();
    if (mounted) spawnSync("umount", ["-l", mountPoint]);
  });

  // The SQLite file on a small tmpfs; a PostgreSQL server's disk is the server's business.
  it.runIf(mounted && !onPostgres)("answers 507 while full, and recovers without a restart when space is back", async () => {
    everything = await startEverything("streamableHttp");
    sb = await startConsole({ dataDir: mountPoint });
    const { api, token } = await setupOwner(sb.url);
    const serverId = await addServer(api, everything.url, "full");
    expect((await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "before" } })).body.call.status).toBe("ok");

    const filler = path.join(mountPoint, "filler");
    spawnSync("dd", ["if=/dev/zero", `of=${filler}`, "bs=64k"]); // until the disk is full
    let refused: Response | undefined;
    for (let i = 0; i < 50 && refused?.status !== 507; i++) {
      refused = await fetch(`${sb.url}/api/v1/servers/${serverId}/tools/call`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "echo", arguments: { message: "x".repeat(100_000) } }),
      });
    }
    expect(refused!.status).toBe(507);
    expect(refused!.headers.get("retry-after")).toBe("30");
    expect(((await refused!.json()) as { error: { code: string; message: string } }).error.message).toMatch(/disk holding the database is full/);

    fs.rmSync(filler);
    await waitFor(async () => (await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "after" } })).body?.call?.status === "ok", 30_000, () => sb!.logs().slice(-3000));
    expect((await api("GET", "/api/v1/calls?status=pending")).body.items).toHaveLength(0);
  }, 120_000);
});
