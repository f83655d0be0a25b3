import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { callTool } from "./relay-support";

const SEEDED = 50_000;

/** Issue 12 §1: on PostgreSQL, history search (`q`) is answered by pg_trgm indexes, not a scan. */
describe.runIf(onPostgres)("history search on PostgreSQL", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Awaited<ReturnType<typeof setupOwner>>["api"];
  let serverId: string;
  let workspaceId: string;

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    workspaceId = owner.workspace.id;
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    // Many older calls of the same shape, none holding the word searched for below.
    await sb.db.run(
      `INSERT INTO "call" (id, workspace_id, server_id, method, name, params, result, status, request_id, trace_id, started_at)
       SELECT 'seed-' || g, ?, ?, 'tools/call', 'echo', '{"message":"seeded ' || md5(g::text) || '"}',
              '{"content":[{"type":"text","text":"Echo: seeded"}]}', 'ok', 'seed-' || g, 't', now() - interval '1 day' - (g || ' seconds')::interval
       FROM generate_series(1, ${SEEDED}) g`,
      workspaceId,
      serverId,
    );
    await sb.db.run('ANALYZE "call"');
  });
  afterAll(async () => {
    await sb?.stop();
    await everything?.stop();
  });

  it("finds a rare word in arguments, results and errors, case-insensitively, through trigram indexes", async () => {
    const rare = await callTool(api, serverId, "echo", { message: "Needle-In-A-Haystack" });
    expect(rare.body.call.status).toBe("ok");
    for (const q of ["needle-in-a", "HAYSTACK"]) {
      const found = (await api("GET", `/api/v1/calls?q=${encodeURIComponent(q)}&limit=10`)).body;
      expect(found.items.map((c: { id: string }) => c.id)).toEqual([rare.body.call.id]);
    }
    expect((await api("GET", "/api/v1/calls?q=seeded&limit=5")).body.items).toHaveLength(5);

    const indexes = (await sb.db.all<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE tablename = 'call' AND indexdef LIKE '%gin_trgm_ops%'`)).map((r) => r.indexname);
    expect(indexes.sort()).toEqual(["call_error_trgm_idx", "call_params_trgm_idx", "call_result_trgm_idx"]);
    // At this size a sequential scan may still be cheapest; what matters is that the indexes serve
    // the query once the table is large, so ask for the plan with sequential scans priced out.
    const client = new pg.Client({ connectionString: sb.databaseUrl });
    await client.connect();
    let plan: string;
    try {
      await client.query("SET enable_seqscan = off");
      const rows = (
        await client.query(
          `EXPLAIN SELECT id FROM "call" WHERE workspace_id = $1 AND (params ILIKE $2 OR result ILIKE $2 OR error ILIKE $2) ORDER BY started_at DESC, id DESC LIMIT 11`,
          [workspaceId, "%needle-in-a%"],
        )
      ).rows as { "QUERY PLAN": string }[];
      plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    } finally {
      await client.end();
    }
    expect(plan).toContain("call_params_trgm_idx");
  });
});
