import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import Database from "better-sqlite3";
import pg from "pg";
import { setupOwner, type ConsoleHandle } from "../tests/support/console";
import { machine, onBothDatabases, percentile, writeSection } from "./report";

const ROWS = Number(process.env.BENCH_HISTORY_ROWS ?? 1_000_000);
// 100 per row: with 40, p95 is the second slowest request and one pause of the machine decides it.
const SAMPLES = 100;
const TOOLS = Array.from({ length: 30 }, (_, i) => `tool_${i}`);
const WORDS = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega report invoice weather search".split(" ");
const COLUMNS = [
  "id", "workspace_id", "server_id", "user_id", "user_name", "method", "name", "params", "result", "status", "is_error",
  "request_id", "trace_id", "origin", "started_at", "finished_at", "duration_ms", "request_size", "result_size",
];

export type Ids = { workspaceId: string; userId: string; serverIds: string[] };
const RARE = { userId: "rare-user", name: "rare_tool", q: "zanzibar" };

/** The seeded calls, oldest first, spread over 30 days, with a few rare values to look for. */
function* seededRows({ workspaceId, userId, serverIds }: Ids, sqlite: boolean): Generator<unknown[]> {
  // Stored as Prisma stores them on each database.
  const stamp = (t: number) => (sqlite ? new Date(t).toISOString().replace("Z", "+00:00") : new Date(t));
  const now = Date.now();
  const span = 30 * 24 * 3600 * 1000;
  const [rareServer, ...common] = serverIds;
  for (let i = 0; i < ROWS; i++) {
    const rare = i % 20_000 === 7;
    const t = now - span + Math.floor((i / ROWS) * span);
    const words = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}${rare ? ` ${RARE.q}` : ""}`;
    yield [
      crypto.randomUUID(),
      workspaceId,
      rare ? rareServer : common[i % common.length],
      rare ? RARE.userId : userId,
      "Ada",
      "tools/call",
      rare ? RARE.name : TOOLS[i % TOOLS.length],
      JSON.stringify({ message: words, n: i }),
      JSON.stringify({ content: [{ type: "text", text: `Echo: ${words}` }] }),
      i % 13 === 0 ? "error" : i % 97 === 0 ? "timeout" : "ok",
      sqlite ? 0 : false,
      `seed-${i}`,
      crypto.randomBytes(16).toString("hex"),
      i % 11 === 0 ? "app" : "user",
      stamp(t),
      stamp(t + 4),
      // Durations spread over 0–2 s, so the dashboard's percentiles sort real values.
      ((i * 7919) % 20_000) / 10,
      40,
      60,
    ];
  }
}

/**
 * Straight into the database (the API would take hours); the indexes are maintained as for any
 * call, and on SQLite the seeded calls are indexed for search as the console's indexer would.
 */
export async function seed(sb: ConsoleHandle, ids: Ids): Promise<void> {
  if (sb.db.provider === "sqlite") {
    const db = new Database(sb.dbFile);
    const insert = db.prepare(`INSERT INTO call (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map(() => "?").join(", ")})`);
    db.transaction(() => {
      for (const row of seededRows(ids, true)) insert.run(...row);
    })();
    // Imported here: loading lib/db at the top would bind this process's client to no database before the relay bench sets its own.
    const { indexCalls } = await import("@/lib/calls/search-index");
    await indexCalls(db);
    db.pragma("wal_checkpoint(PASSIVE)");
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: sb.databaseUrl });
  await client.connect();
  try {
    const batch = 2000;
    let rows: unknown[][] = [];
    const flush = async () => {
      const values = rows.map((_, r) => `(${COLUMNS.map((__, c) => `$${r * COLUMNS.length + c + 1}`).join(", ")})`).join(", ");
      await client.query(`INSERT INTO "call" (${COLUMNS.join(", ")}) VALUES ${values}`, rows.flat());
      rows = [];
    };
    for (const row of seededRows(ids, false)) {
      rows.push(row);
      if (rows.length === batch) await flush();
    }
    if (rows.length) await flush();
    await client.query('VACUUM ANALYZE "call"');
  } finally {
    await client.end();
  }
}

async function databaseBytes(sb: ConsoleHandle): Promise<number> {
  if (sb.db.provider === "sqlite") return fs.statSync(sb.dbFile).size + (fs.existsSync(`${sb.dbFile}-wal`) ? fs.statSync(`${sb.dbFile}-wal`).size : 0);
  return Number((await sb.db.get<{ size: string }>("SELECT pg_database_size(current_database()) AS size"))!.size);
}

/** History at `ROWS` calls on one database: each documented filter, free text and a page 10,000 rows deep, through the API. */
async function benchHistoryOn(sb: ConsoleHandle, label: string): Promise<void> {
  try {
    const { api, token, workspace } = await setupOwner(sb.url);
    const serverIds: string[] = [];
    for (let i = 0; i < 20; i++) serverIds.push((await api("POST", "/api/v1/servers", { name: `s${i}`, url: "http://127.0.0.1:9/mcp" })).body.server.id);
    const me = (await api("GET", "/api/v1/me")).body;
    const userId = (me.user ?? me).id as string;
    const sizeBefore = await databaseBytes(sb);
    const t0 = performance.now();
    await seed(sb, { workspaceId: workspace.id, userId, serverIds });
    const seedMs = performance.now() - t0;
    const deep = (await sb.db.get<{ id: string }>('SELECT id FROM "call" WHERE workspace_id = ? ORDER BY started_at DESC, id DESC LIMIT 1 OFFSET ?', workspace.id, Math.min(10_000, Math.floor(ROWS / 2))))!;
    // Seeding blocked this process for seconds: the keep-alive socket the console closed meanwhile fails once.
    await fetch(`${sb.url}/api/v1/calls?limit=1`, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
    const week = new Date(Date.now() - 9 * 24 * 3600 * 1000).toISOString();
    const weekEnd = new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString();
    const cases: [string, string][] = [
      ["newest page", ""],
      ["server (common)", `serverId=${serverIds[1]}`],
      ["server (rare)", `serverId=${serverIds[0]}`],
      ["tool (common)", `name=${TOOLS[3]}`],
      ["tool (rare)", `name=${RARE.name}`],
      ["status error", "status=error"],
      ["status timeout", "status=timeout"],
      ["user (rare)", `userId=${RARE.userId}`],
      ["time range (a week)", `from=${encodeURIComponent(week)}&to=${encodeURIComponent(weekEnd)}`],
      ["free text (common word)", "q=weather"],
      ["free text (rare word)", `q=${RARE.q}`],
      ["page 10,000 rows deep", `cursor=${deep.id}`],
    ];
    const lines = [
      `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. Load average after seeding: ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}. ${ROWS.toLocaleString("en")} calls in one workspace (seeded${label === "SQLite" ? " and indexed for search" : ""} in ${(seedMs / 1000).toFixed(1)} s), ${label}; ${SAMPLES} requests per row through \`GET /api/v1/calls\` (50 per page).`,
      "",
      "| query | p50 ms | p95 ms | rows | target p95 ≤ 50 ms |",
      "| --- | ---: | ---: | ---: | --- |",
    ];
    for (const [name, query] of cases) {
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < SAMPLES; i++) {
        const start = performance.now();
        const res = await fetch(`${sb.url}/api/v1/calls?limit=50${query ? `&${query}` : ""}`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await res.json()) as { items?: unknown[] };
        times.push(performance.now() - start);
        if (!body.items) throw new Error(`${name}: ${JSON.stringify(body)}`);
        rows = body.items.length;
      }
      const p95 = percentile(times, 95);
      lines.push(`| ${name} | ${percentile(times, 50).toFixed(1)} | ${p95.toFixed(1)} | ${rows} | ${p95 <= 50 ? "met" : "**not met**"} |`);
    }
    const grown = ((await databaseBytes(sb)) - sizeBefore) / 2 ** 20;
    lines.push("", `Database size: ${grown.toFixed(0)} MiB more for the seeded calls, every index included (the text search index too).`);
    writeSection(`History at a million calls, ${label}`, lines.join("\n"));
    console.log(lines.join("\n"));
  } catch (err) {
    console.error(sb.logs().slice(-4000));
    throw err;
  } finally {
    await sb.stop();
  }
}

export async function benchHistory(): Promise<void> {
  await onBothDatabases("bench_history", benchHistoryOn);
}
