import crypto from "node:crypto";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { onPostgres, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";

const CALLS = 12_000;

/**
 * Calls that arrive in the SQLite file without the search index being told (an upgrade, an
 * import): searches are exact while the indexer works through them and after, and it leaves the
 * index equal to the table (on the console's connection, and in its optional thread).
 */
describe.skipIf(onPostgres)("history search after an import, SQLite", () => {
  let sb: ConsoleHandle | undefined;
  afterEach(async () => {
    await sb?.stop();
    sb = undefined;
  });

  async function consoleWithImport(intervalMs: string, thread = false) {
    sb = await startConsole({ env: { SWITCHBOARD_SEARCH_INDEX_MS: intervalMs, SWITCHBOARD_SEARCH_INDEX_THREAD: thread ? "1" : "0" } });
    const { api, workspace } = await setupOwner(sb.url);
    const serverId = (await api("POST", "/api/v1/servers", { name: "imported", url: "http://127.0.0.1:9/mcp" })).body.server.id as string;
    const db = new Database(sb.dbFile);
    const insert = db.prepare(
      `INSERT INTO "call" (id, workspace_id, server_id, method, name, params, result, error, status, request_id, trace_id, started_at, finished_at) VALUES (?, ?, ?, 'tools/call', 'echo', ?, ?, ?, ?, ?, 't', ?, ?)`,
    );
    const rare: string[] = [];
    db.transaction(() => {
      for (let i = 0; i < CALLS; i++) {
        const id = crypto.randomUUID();
        // The rare word once in arguments, once in a result, once in an error, spread over the import.
        const where = i % 4_000 === 11 ? "params" : i % 4_000 === 1_999 ? "result" : i % 4_000 === 3_001 ? "error" : null;
        if (where) rare.push(id);
        const text = (w: string) => (where === w ? "Wombat-Burrow" : `common ${i}`);
        const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString().replace("Z", "+00:00");
        insert.run(id, workspace.id, serverId, JSON.stringify({ message: text("params") }), JSON.stringify({ text: text("result") }), where === "error" ? JSON.stringify({ message: "Wombat-Burrow failed" }) : null, where === "error" ? "error" : "ok", id, at, at);
      }
    })();
    db.close();
    const ids = async (q: string) => {
      const res = await api("GET", `/api/v1/calls?q=${encodeURIComponent(q)}&origin=any&limit=50`);
      expect(res.status).toBe(200);
      return (res.body.items as { id: string }[]).map((c) => c.id).sort();
    };
    return { ids, rare: rare.sort() };
  }

  const left = async () =>
    Number((await sb!.db.get<{ n: number }>(`SELECT (SELECT max(rowid) FROM "call") - (SELECT indexed_through FROM call_search_state) + (SELECT count(*) FROM call_search_unindexed) AS n`))!.n);
  const inIndex = async (word: string) => Number((await sb!.db.get<{ n: number }>("SELECT count(*) AS n FROM call_search WHERE call_search MATCH ?", `"${word}"`))!.n);

  it("answers exactly before the indexer ran, and the graceful stop's pass indexes every imported call", async () => {
    const { ids, rare } = await consoleWithImport("600000");
    expect(await left()).toBe(CALLS);
    expect(await ids("wombat-burrow")).toEqual(rare);
    expect(await ids("WOMBAT-BURR")).toEqual(rare);

    await sb!.stop();
    expect(sb!.logs(), sb!.logs()).toContain(`[search] indexed ${CALLS} calls`);
    expect(sb!.logs()).not.toMatch(/\[search\] (indexing|indexer thread) failed/);
    await sb!.restart();
    expect(await left()).toBe(0);
    expect(await inIndex("wombat-burrow")).toBe(rare.length);
    expect(await inIndex("common 11999")).toBe(1);
    expect(await ids("wombat-burrow")).toEqual(rare);
    await sb!.db.run("INSERT INTO call_search(call_search, rank) VALUES ('integrity-check', 1)");
  });

  it.each([false, true])("the timer catches up while the console answers, exactly at every point (thread: %s)", async (thread) => {
    const { ids, rare } = await consoleWithImport("100", thread);
    let during = 0;
    await waitFor(async () => {
      expect(await ids("wombat-burrow")).toEqual(rare);
      during++;
      return (await left()) === 0;
    }, 60_000);
    expect(during).toBeGreaterThan(0);
    expect(await inIndex("wombat-burrow")).toBe(rare.length);
    expect(await ids("wombat-burrow")).toEqual(rare);
    expect(sb!.logs()).toContain(`[search] indexed ${CALLS} calls`);
    expect(sb!.logs()).not.toMatch(/\[search\] (indexing|indexer thread) failed/);
  });
});
