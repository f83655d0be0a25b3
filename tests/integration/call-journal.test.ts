import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyMigratedSqlite } from "../support/migrated";
import { createMigratedPostgresDatabase } from "../support/postgres";

/**
 * The call journal in this process against a real database of the pass (a SQLite file, or the
 * PostgreSQL pass's server): every kind of write it makes, read back with plain SQL.
 */
const postgres = process.env.SWITCHBOARD_TEST_DATABASE === "postgres";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-call-journal-"));
let databaseUrl = "";
let journal: typeof import("@/lib/domains/calls/journal");
let read: (sql: string, ...values: unknown[]) => Promise<Record<string, unknown>[]>;
let close = async () => {};

beforeAll(async () => {
  if (postgres) {
    databaseUrl = await createMigratedPostgresDatabase(`call_journal_${Date.now()}`);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    read = async (sql, ...values) => {
      let n = 0;
      return (await client.query(sql.replace(/\?/g, () => `$${++n}`), values)).rows;
    };
    close = () => client.end();
  } else {
    const file = path.join(dir, "journal.db");
    copyMigratedSqlite(file);
    databaseUrl = `file:${file}`;
    const db = new Database(file, { readonly: true });
    read = async (sql, ...values) => db.prepare(sql).all(...values) as Record<string, unknown>[];
    close = async () => {
      db.close();
    };
  }
  process.env.DATABASE_URL = databaseUrl;
  const { prisma } = await import("@/lib/core/db/client");
  await prisma.workspace.create({ data: { id: "w1", name: "W", slug: "w1" } });
  await prisma.server.create({ data: { id: "s1", workspaceId: "w1", name: "journal", url: "http://127.0.0.1:9/mcp" } });
  journal = await import("@/lib/domains/calls/journal");
}, 120_000);

afterAll(async () => {
  await close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function pending(id: string, instanceId: string) {
  return {
    id, workspaceId: "w1", serverId: "s1", sessionId: null, userId: "u1", userName: "Numbat", method: "tools/call", name: "echo",
    params: '{"message":"Bilby"}', paramsSecret: null, requestId: `r-${id}`, traceId: "t", rerunOfId: null, origin: "user",
    parentCallId: null, credentialMode: null, credentialUserId: null, credentialUserName: null, startedAt: new Date("2026-11-27T10:00:00.000Z"),
    requestSize: 19, instanceId, sentInvalid: false, client: "host 1.0",
  };
}

const row = async (id: string) => (await read(`SELECT * FROM "call" WHERE id = ?`, id))[0]!;
const time = (v: unknown) => new Date(v as string | Date).getTime();

describe("the call journal, the one writer of call rows", () => {
  it("writes a pending row, progress, and its completion, many at once", async () => {
    await Promise.all(["a1", "a2", "a3"].map((id) => journal.recordPending(pending(id, "i1"))));
    expect(await row("a1")).toMatchObject({ status: "pending", client: "host 1.0", request_size: 19 });
    await Promise.all(["a1", "a2"].map((id) => journal.recordProgress(id, `{"progress":1,"id":"${id}"}`)));
    await journal.recordProgress("a1", '{"progress":2}');
    const finishedAt = new Date("2026-11-27T10:00:01.500Z");
    await Promise.all(["a1", "a2", "a3"].map((id, i) => journal.recordCompletion(id, { status: "ok", isError: i === 2, result: `{"n":${i}}`, error: null, finishedAt, durationMs: 1.25, resultSize: 7 })));
    const a1 = await row("a1");
    expect(a1).toMatchObject({ status: "ok", result: '{"n":0}', duration_ms: 1.25, result_size: 7, progress: '{"progress":2}' });
    expect(time(a1.finished_at)).toBe(finishedAt.getTime());
    expect(Boolean((await row("a3")).is_error)).toBe(true);
    expect((await row("a2")).progress).toBe('{"progress":1,"id":"a2"}');
  });

  it("commits outside a transaction Prisma holds open on its connection: that one's rollback keeps the row", async () => {
    const { prisma } = await import("@/lib/core/db/client");
    let written: Promise<void> | undefined;
    const rolledBack = prisma.$transaction(async (tx) => {
      await tx.workspace.update({ where: { id: "w1" }, data: { name: "Renamed" } });
      written = journal.recordPending(pending("x1", "i1"));
      throw new Error("roll back");
    });
    await expect(rolledBack).rejects.toThrow("roll back");
    await written;
    expect((await row("x1")).status).toBe("pending");
    expect((await read(`SELECT name FROM workspace WHERE id = ?`, "w1"))[0]!.name).toBe("W");
  });

  it("writes a call that never reached its server as one finished row", async () => {
    const now = new Date("2026-11-27T10:05:00.000Z");
    await journal.recordFailedCall({ ...pending("f1", "i1"), status: "error", isError: false, result: null, error: '{"kind":"connection"}', finishedAt: now, durationMs: 0, resultSize: null });
    const f1 = await row("f1");
    expect(f1).toMatchObject({ status: "error", error: '{"kind":"connection"}', duration_ms: 0 });
    expect(time(f1.started_at)).toBe(new Date("2026-11-27T10:00:00.000Z").getTime());
  });

  it("records a task's state and its outcome", async () => {
    await journal.recordPending(pending("t1", "i1"));
    await journal.recordTaskState("t1", { taskId: "task-1", taskStatus: "working", taskStatusMessage: "digging", taskPollIntervalMs: 250, taskUpdatedAt: new Date() });
    expect(await row("t1")).toMatchObject({ status: "pending", task_id: "task-1", task_status: "working", task_status_message: "digging", task_poll_interval_ms: 250 });
    const finishedAt = new Date();
    await journal.recordTaskCompletion("t1", { status: "ok", isError: false, result: "{}", error: null, finishedAt, durationMs: 12, resultSize: 2, taskStatus: "completed", taskUpdatedAt: finishedAt });
    expect(await row("t1")).toMatchObject({ status: "ok", task_status: "completed", task_status_message: "digging", result: "{}" });
  });

  it("marks interrupted the pending calls of gone instances and, at a stop, its own; task calls are claimed instead", async () => {
    for (const [id, instance] of [["g1", "gone"], ["g2", "gone"], ["l1", "live"], ["m1", "me"]] as const) await journal.recordPending(pending(id, instance));
    await journal.recordPending(pending("gt", "gone"));
    await journal.recordTaskState("gt", { taskId: "task-2", taskStatus: "working", taskStatusMessage: null, taskPollIntervalMs: null, taskUpdatedAt: new Date() });

    expect(await journal.instanceCalls.interruptOrphans(["live", "me", "i1"])).toBe(2);
    expect((await row("g1")).status).toBe("interrupted");
    expect(JSON.parse(String((await row("g2")).error))).toMatchObject({ kind: "interrupted" });
    expect((await row("l1")).status).toBe("pending");
    expect((await row("gt")).status).toBe("pending");

    expect(await journal.instanceCalls.claimTaskCalls(["live", "me", "i1"], "me")).toEqual(["gt"]);
    expect((await row("gt")).instance_id).toBe("me");
    expect(await journal.instanceCalls.claimTaskCalls(["live", "me", "i1"], "live")).toEqual([]);

    expect(await journal.instanceCalls.interruptOwn("me")).toBe(1);
    expect((await row("m1")).status).toBe("interrupted");
    expect((await row("gt")).status).toBe("pending");
    expect((await row("l1")).status).toBe("pending");
  });
});
