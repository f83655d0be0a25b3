import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexCalls } from "@/lib/domains/calls/search-index";
import { onPostgres, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { callTool, ROOT } from "./relay-support";

/**
 * SQLite's history search index is kept behind the call path: finished calls are indexed in
 * batches, and a search LIKE-scans the calls not indexed yet, so answers never wait for the
 * indexer. The console here runs without its timer; the test indexes through its own connection to
 * the file (as a second instance would), so it decides when the indexer runs.
 */
describe.skipIf(onPostgres)("history search index, SQLite", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Awaited<ReturnType<typeof setupOwner>>["api"];
  let serverId: string;
  let workspaceId: string;
  let token: string;
  const TAIL_SCAN = 1000;
  const ids = async (q: string) => (await api("GET", `/api/v1/calls?q=${encodeURIComponent(q)}&origin=any`)).body.items.map((c: { id: string }) => c.id) as string[];
  const indexNow = async () => {
    const db = new Database(sb.dbFile);
    db.defaultSafeIntegers(true); // as Prisma's adapter opens the console's connection
    try {
      return await indexCalls(db);
    } finally {
      db.close();
    }
  };
  const state = async () => (await sb.db.get<{ through: number }>('SELECT indexed_through AS through FROM call_search_state'))!.through;
  const rowid = async (id: string) => (await sb.db.get<{ r: number }>('SELECT rowid AS r FROM "call" WHERE id = ?', id))!.r;
  const unindexed = async () => (await sb.db.all<{ r: number }>("SELECT call_rowid AS r FROM call_search_unindexed ORDER BY 1")).map((r) => r.r);
  // How many calls the index finds a word in.
  const inIndex = async (word: string) => (await sb.db.get<{ n: number }>("SELECT count(*) AS n FROM call_search WHERE call_search MATCH ?", `"${word}"`))!.n;
  // With nothing left to index, FTS5's own check compares the index with every row of the table.
  const integrityCheck = () => sb.db.run("INSERT INTO call_search(call_search, rank) VALUES ('integrity-check', 1)");
  const pending = async (id: string, message: string) =>
    sb.db.run(
      `INSERT INTO "call" (id, workspace_id, server_id, method, name, params, status, request_id, trace_id, started_at) VALUES (?, ?, ?, 'tools/call', 'echo', ?, 'pending', ?, 't', ?)`,
      id, workspaceId, serverId, JSON.stringify({ message }), id, new Date(),
    );
  const complete = async (id: string, text: string, status = "ok") =>
    sb.db.run(`UPDATE "call" SET status = ?, result = ?, finished_at = ?, duration_ms = 1 WHERE id = ?`, status, JSON.stringify({ content: [{ type: "text", text }] }), new Date(), id);

  beforeAll(async () => {
    [sb, everything] = await Promise.all([
      startConsole({ env: { SWITCHBOARD_SEARCH_INDEX_MS: "0", SWITCHBOARD_SEARCH_TAIL_SCAN: String(TAIL_SCAN) } }),
      startEverything("streamableHttp"),
    ]);
    const owner = await setupOwner(sb.url);
    token = owner.token;
    api = owner.api;
    workspaceId = owner.workspace.id;
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
  });
  afterAll(async () => {
    await sb?.stop();
    await everything?.stop();
  });

  it("finds a call as soon as it completes, before the indexer ran, and from the index after", async () => {
    const call = (await callTool(api, serverId, "echo", { message: "Platypus-Creek" })).body.call;
    expect(call.status).toBe("ok");
    expect(await rowid(call.id)).toBeGreaterThan(await state());
    expect(await inIndex("platypus-creek")).toBe(0);
    expect(await ids("platypus-cre")).toEqual([call.id]);
    expect(await ids("ECHO: PLATYPUS")).toEqual([call.id]);

    expect(await indexNow()).toBeGreaterThan(0);
    expect(await state()).toBeGreaterThanOrEqual(await rowid(call.id));
    expect(await inIndex("platypus-creek")).toBe(1);
    expect(await ids("platypus-cre")).toEqual([call.id]);
    expect(await indexNow()).toBe(0);
    await expect(integrityCheck()).resolves.toBeTypeOf("number");
  });

  it("indexes calls that complete out of order, and long-pending ones once they finish, exactly once", async () => {
    const [older, newer] = [crypto.randomUUID(), crypto.randomUUID()];
    await pending(older, "Numbat-Ridge");
    await pending(newer, "Bilby-Flat");
    await complete(newer, "Echo: Bilby-Flat");
    await indexNow();
    // The newer call is indexed; the older, still pending, is noted and still found by its arguments.
    expect(await unindexed()).toContain(await rowid(older));
    expect(await unindexed()).not.toContain(await rowid(newer));
    expect(await inIndex("bilby-flat")).toBe(1);
    expect(await inIndex("numbat-ridge")).toBe(0);
    expect(await ids("numbat-ri")).toEqual([older]);
    expect(await ids("bilby-fl")).toEqual([newer]);

    await complete(older, "Echo: Numbat-Ridge and Wallaby-Gap");
    expect(await ids("wallaby-gap")).toEqual([older]);
    await indexNow();
    expect(await unindexed()).not.toContain(await rowid(older));
    expect(await inIndex("wallaby-gap")).toBe(1);
    expect(await inIndex("numbat-ridge")).toBe(1);
    expect(await ids("wallaby-gap")).toEqual([older]);
    await indexNow();
    expect(await inIndex("bilby-flat")).toBe(1);
    await expect(integrityCheck()).resolves.toBeTypeOf("number");
  });

  it("indexes again a call whose text changes after it was indexed (a late completion of an interrupted call)", async () => {
    const id = crypto.randomUUID();
    await pending(id, "Dingo-Well");
    await sb.db.run(`UPDATE "call" SET status = 'interrupted', error = ?, finished_at = ? WHERE id = ?`, JSON.stringify({ kind: "interrupted", message: "Kookaburra stopped" }), new Date(), id);
    await indexNow();
    expect(await inIndex("kookaburra")).toBe(1);
    await complete(id, "Echo: Emu-Plains");
    await sb.db.run(`UPDATE "call" SET error = NULL WHERE id = ?`, id);
    expect(await inIndex("kookaburra")).toBe(0);
    expect(await inIndex("emu-plains")).toBe(1);
    expect(await ids("emu-pla")).toEqual([id]);
    expect(await ids("kookaburra")).toEqual([]);
    await expect(integrityCheck()).resolves.toBeTypeOf("number");
  });

  it("forgets deleted calls, indexed or not, and never takes a reused rowid for indexed", async () => {
    const indexed = (await callTool(api, serverId, "echo", { message: "Goanna-Rock" })).body.call;
    await indexNow();
    const tail = (await callTool(api, serverId, "echo", { message: "Goanna-Tail" })).body.call;
    const through = await state();
    // Both the newest calls go: the one indexed and the one not yet indexed.
    await sb.db.run(`DELETE FROM "call" WHERE id IN (?, ?)`, indexed.id, tail.id);
    expect(await ids("goanna")).toEqual([]);
    expect(await inIndex("goanna")).toBe(0);
    expect(await state()).toBeLessThan(through);
    await expect(integrityCheck()).resolves.toBeTypeOf("number");
    // SQLite hands the next call the rowid of the deleted newest one: it counts as not indexed.
    const next = (await callTool(api, serverId, "echo", { message: "Goanna-Again" })).body.call;
    expect(await rowid(next.id)).toBeGreaterThan(await state());
    expect(await ids("goanna")).toEqual([next.id]);
    await indexNow();
    expect(await inIndex("goanna-again")).toBe(1);
    expect(await ids("goanna")).toEqual([next.id]);
    await expect(integrityCheck()).resolves.toBeTypeOf("number");
  });

  it("two instances indexing one file index every call exactly once", async () => {
    const other = await startConsole({ databaseUrl: sb.databaseUrl, join: true, env: { SWITCHBOARD_SEARCH_INDEX_MS: "20" } });
    try {
      await sb.db.run(
        `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 20000)
         INSERT INTO "call" (id, workspace_id, server_id, method, name, params, result, status, request_id, trace_id, started_at)
         SELECT 'twice-' || n, ?, ?, 'tools/call', 'echo', '{"message":"Cassowary ' || n || '"}', '{"text":"Echo: Cassowary"}', 'ok', 'twice-' || n, 't', ? FROM g`,
        workspaceId, serverId, new Date(),
      );
      // This process and the other console's one-per-20-ms timer work through the same backlog.
      await indexNow();
      expect(await indexNow()).toBe(0);
    } finally {
      await other.stop();
    }
    expect(await inIndex("cassowary")).toBe(20_000);
    // A backlog that large ran with less merging; the defaults are back once it is indexed.
    expect(await sb.db.get("SELECT v FROM call_search_config WHERE k IN ('automerge', 'crisismerge') AND v NOT IN (4, 16)")).toBeUndefined();
    await expect(integrityCheck()).resolves.toBeTypeOf("number");
  });

  it("an import larger than the tail a search scans: the page says it is incomplete until indexed, the export is exact", async () => {
    await indexNow();
    // 3,000 calls arrive unindexed (as db:copy or an upgrade writes them); every 1,000th holds the word.
    await sb.db.run(
      `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 3000)
       INSERT INTO "call" (id, workspace_id, server_id, method, name, params, result, status, request_id, trace_id, started_at)
       SELECT 'import-' || n, ?, ?, 'tools/call', 'echo', '{"message":"' || CASE WHEN n % 1000 = 0 THEN 'Pademelon' ELSE 'Wombat' END || '"}', '{"text":"ok"}',
         'ok', 'import-' || n, 't', ? FROM g`,
      workspaceId, serverId, new Date(),
    );
    const search = async () => (await api("GET", "/api/v1/calls?q=pademelon&origin=any")).body as { items: { id: string }[]; searchIncomplete?: boolean };
    const during = await search();
    // Only the newest 1,000 unindexed calls were scanned: the newest match is there, the older two may not be.
    expect(during.searchIncomplete).toBe(true);
    expect(during.items.map((c) => c.id)).toEqual(["import-3000"]);
    const exported = await fetch(`${sb.url}/api/v1/calls/export?format=ndjson&origin=any&q=pademelon`, { headers: { authorization: `Bearer ${token}` } });
    const lines = (await exported.text()).trim().split("\n").map((l) => (JSON.parse(l) as { id: string }).id);
    expect(lines.sort()).toEqual(["import-1000", "import-2000", "import-3000"]);

    await indexNow();
    const after = await search();
    expect(after.searchIncomplete).toBeUndefined();
    expect(after.items.map((c) => c.id).sort()).toEqual(["import-1000", "import-2000", "import-3000"]);
  });

  it("the migration keeps the calls indexed by the former triggers searchable, with nothing left to index", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-fts-migration-"));
    const db = new Database(path.join(dir, "db.sqlite"));
    try {
      const migrations = path.join(ROOT, "prisma/migrations");
      const all = fs.readdirSync(migrations).filter((m) => /^\d/.test(m)).sort();
      const mine = all.findIndex((m) => m.endsWith("_history_search_batched"));
      for (const m of all.slice(0, mine)) db.exec(fs.readFileSync(path.join(migrations, m, "migration.sql"), "utf8"));
      db.pragma("foreign_keys = OFF");
      const insert = db.prepare(`INSERT INTO "call" (id, workspace_id, server_id, method, name, params, result, status, request_id, trace_id, started_at) VALUES (?, 'w', 's', 'tools/call', 'echo', ?, ?, ?, ?, 't', 'x')`);
      insert.run("a", '{"message":"Quoll-Hollow"}', '{"text":"Echo: Quoll-Hollow"}', "ok", "a");
      insert.run("b", '{"message":"Possum-Creek"}', null, "pending", "b");
      for (const m of all.slice(mine)) db.exec(fs.readFileSync(path.join(migrations, m, "migration.sql"), "utf8"));
      const match = (word: string) => (db.prepare(`SELECT c.id FROM call_search s JOIN "call" c ON c.rowid = s.rowid WHERE call_search MATCH ? ORDER BY 1`).pluck().all(`"${word}"`) as string[]);
      expect(match("quoll-hollow")).toEqual(["a"]);
      expect(match("possum-creek")).toEqual(["b"]);
      expect(await indexCalls(db)).toBe(0);
      // The pending call was indexed by the former insert trigger: its completion indexes it again.
      db.prepare(`UPDATE "call" SET status = 'ok', result = '{"text":"Echo: Possum-Creek, Bandicoot"}' WHERE id = 'b'`).run();
      expect(match("bandicoot")).toEqual(["b"]);
      db.prepare(`DELETE FROM "call" WHERE id = 'a'`).run();
      expect(match("quoll-hollow")).toEqual([]);
      db.prepare("INSERT INTO call_search(call_search, rank) VALUES ('integrity-check', 1)").run();
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
