import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { callTool } from "./relay-support";

const SEEDED = 50_000;

// Many older calls of the same shape, none holding the words searched for below.
const SEED_SQL = {
  postgresql: `INSERT INTO "call" (id, workspace_id, server_id, method, name, params, result, status, request_id, trace_id, started_at)
    SELECT 'seed-' || g, ?, ?, 'tools/call', 'echo', '{"message":"seeded ' || md5(g::text) || '"}',
           '{"content":[{"type":"text","text":"Echo: seeded"}]}', 'ok', 'seed-' || g, 't', now() - interval '1 day' - (g || ' seconds')::interval
    FROM generate_series(1, ${SEEDED}) g`,
  sqlite: `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${SEEDED})
    INSERT INTO "call" (id, workspace_id, server_id, method, name, params, result, status, request_id, trace_id, started_at)
    SELECT 'seed-' || n, ?, ?, 'tools/call', 'echo', '{"message":"seeded ' || lower(hex(randomblob(8))) || '"}',
           '{"content":[{"type":"text","text":"Echo: seeded"}]}', 'ok', 'seed-' || n, 't', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now', '-1 day', '-' || n || ' seconds')
    FROM g`,
};

/**
 * Issue 12 §1: history search (`q`, a case-insensitive substring of arguments, result or error)
 * is answered by each database's own text index: pg_trgm on PostgreSQL, FTS5 on SQLite.
 */
describe("history search", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Awaited<ReturnType<typeof setupOwner>>["api"];
  let serverId: string;
  let workspaceId: string;
  const ids = async (q: string, limit = 10) =>
    (await api("GET", `/api/v1/calls?q=${encodeURIComponent(q)}&limit=${limit}`)).body.items.map((c: { id: string }) => c.id) as string[];

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    workspaceId = owner.workspace.id;
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    await sb.db.run(SEED_SQL[sb.db.provider], workspaceId, serverId);
    // PostgreSQL plans by statistics. (SQLite's ANALYZE would count the all-NULL rerun_of_id index
    // as useless and make every deleted call scan the table; the console never runs it.)
    if (sb.db.provider === "postgresql") await sb.db.run('ANALYZE "call"');
  });
  afterAll(async () => {
    await sb?.stop();
    await everything?.stop();
  });

  it("finds a rare word in arguments and results, case-insensitively; short and common words too", async () => {
    const rare = await callTool(api, serverId, "echo", { message: "Needle-In-A-Haystack" });
    expect(rare.body.call.status).toBe("ok");
    for (const q of ["needle-in-a", "HAYSTACK", "Echo: Needle"]) expect(await ids(q)).toEqual([rare.body.call.id]);
    expect(await ids("zanzibar-nowhere")).toEqual([]);
    // A common word (past the full-text shortcut) and a word too short for trigrams still search.
    expect(await ids("seeded", 5)).toHaveLength(5);
    expect(await ids("Ne", 5)).toContain(rare.body.call.id);
  });

  it.skipIf(onPostgres)("SQLite: answers come from the FTS5 index, which triggers keep in step with inserts, updates and deletes", async () => {
    const call = (await callTool(api, serverId, "echo", { message: "Quokka-Island" })).body.call;
    expect(await ids("quokka-isl")).toEqual([call.id]);
    // The database is changed directly only while the console is stopped. FTS5's own check that
    // the index matches the table throws SQLITE_CORRUPT_VTAB otherwise.
    const integrityCheck = () => sb.db.run("INSERT INTO call_search(call_search, rank) VALUES ('integrity-check', 1)");
    await sb.stop();
    await expect(integrityCheck()).resolves.toBeTypeOf("number");
    // Emptied, the index finds nothing (so it is what answers); rebuilt, it finds the call again.
    await sb.db.run("INSERT INTO call_search(call_search) VALUES ('delete-all')");
    await sb.restart();
    expect(await ids("quokka-isl")).toEqual([]);
    await sb.stop();
    await sb.db.run("INSERT INTO call_search(call_search) VALUES ('rebuild')");
    await sb.db.run(`UPDATE "call" SET result = ? WHERE id = ?`, '{"content":[{"type":"text","text":"Wombat-Bay"}]}', call.id);
    await sb.db.run(`DELETE FROM "call" WHERE id LIKE 'seed-1%'`);
    await expect(integrityCheck()).resolves.toBeTypeOf("number");
    await sb.restart();
    expect(await ids("quokka-isl")).toEqual([call.id]);
    expect(await ids("wombat-bay")).toEqual([call.id]);
    expect(await ids("seeded", 5)).toHaveLength(5);
  });

  it.runIf(onPostgres)("PostgreSQL: trigram indexes serve the search", async () => {
    const indexes = (await sb.db.all<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE tablename = 'call' AND indexdef LIKE '%gin_trgm_ops%'`)).map((r) => r.indexname);
    expect(indexes.sort()).toEqual(["call_error_trgm_idx", "call_params_trgm_idx", "call_result_trgm_idx"]);
    // At this size a sequential scan may still be cheapest; what matters is that the indexes serve
    // the query once the table is large, so ask for the plan with sequential scans priced out.
    const client = new pg.Client({ connectionString: sb.databaseUrl });
    await client.connect();
    try {
      await client.query("SET enable_seqscan = off");
      const { rows } = await client.query<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT id FROM "call" WHERE workspace_id = $1 AND (params ILIKE $2 OR result ILIKE $2 OR error ILIKE $2) ORDER BY started_at DESC, id DESC LIMIT 11`,
        [workspaceId, "%needle-in-a%"],
      );
      expect(rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain("call_params_trgm_idx");
    } finally {
      await client.end();
    }
  });

  it("refuses an origin it does not know with 400 instead of answering nothing", async () => {
    const bogus = await api("GET", "/api/v1/calls?origin=bogus");
    expect([bogus.status, bogus.body.error.code]).toEqual([400, "bad_request"]);
    expect(bogus.body.error.message).toMatch(/^origin: /);
    expect((await api("GET", "/api/v1/calls?origin=any")).status).toBe(200);
    expect((await api("GET", "/api/v1/calls?origin=gateway")).status).toBe(200);
  });
});
