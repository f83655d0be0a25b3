import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import Database from "better-sqlite3";
import pg from "pg";
import { setupOwner, type ConsoleHandle } from "../tests/support/console";
import { historyCases, OTHER_USER, RARE, TAGS } from "./history-cases";
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
const TAG_COLUMNS = ["call_id", "tag", "workspace_id", "created_at"];

type Seeded = { call: unknown[]; tags: unknown[][] };

/** A small seeded generator of numbers in [0, 1): the same calls on every run and database. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seeded calls, oldest first, spread over 30 days, with a few rare values to look for. */
function* seededRows({ workspaceId, userId, serverIds }: Ids, sqlite: boolean): Generator<Seeded> {
  // Stored as Prisma stores them on each database.
  const stamp = (t: number) => (sqlite ? new Date(t).toISOString().replace("Z", "+00:00") : new Date(t));
  const now = Date.now();
  const span = 30 * 24 * 3600 * 1000;
  const [rareServer, ...common] = serverIds;
  // Each attribute drawn independently (a seeded generator), so a combination of filters is as
  // selective as the product of its parts: index arithmetic on i made some pairs empty.
  const random = mulberry32(28);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  for (let i = 0; i < ROWS; i++) {
    const rare = i % 20_000 === 7;
    const t = now - span + Math.floor((i / ROWS) * span);
    const words = `${pick(WORDS)} ${pick(WORDS)}${rare ? ` ${RARE.q}` : ""}`;
    const id = crypto.randomUUID();
    const [s, o, u, tg] = [random(), random(), random(), random()];
    const tags = [rare ? RARE.tag : null, tg < 0.1 ? TAGS.common : null, tg >= 0.1 && tg < 0.12 ? TAGS.some : null].filter((tag) => tag !== null);
    yield {
      call: [
        id,
        workspaceId,
        rare ? rareServer : pick(common),
        rare ? RARE.userId : u < 1 / 3 ? OTHER_USER : userId,
        "Ada",
        "tools/call",
        rare ? RARE.name : pick(TOOLS),
        JSON.stringify({ message: words, n: i }),
        JSON.stringify({ content: [{ type: "text", text: `Echo: ${words}` }] }),
        s < 1 / 13 ? "error" : s < 1 / 13 + 1 / 97 ? "timeout" : "ok",
        sqlite ? 0 : false,
        `seed-${i}`,
        crypto.randomBytes(16).toString("hex"),
        // 9 % from MCP Apps, 0.2 % through the gateway (a rare origin).
        o < 1 / 11 ? "app" : o < 1 / 11 + 0.002 ? RARE.origin : "user",
        stamp(t),
        stamp(t + 4),
        // Durations spread over 0–2 s, so the dashboard's percentiles sort real values.
        ((i * 7919) % 20_000) / 10,
        40,
        60,
      ],
      tags: tags.map((tag) => [id, tag, workspaceId, stamp(t + 60_000)]),
    };
  }
}

/**
 * Straight into the database (the API would take hours); the indexes are maintained as for any
 * call, and on SQLite the console's indexer indexes the seeded calls for search before this returns.
 */
export async function seed(sb: ConsoleHandle, ids: Ids): Promise<void> {
  if (sb.db.provider === "sqlite") {
    const db = new Database(sb.dbFile, { timeout: 60_000 });
    const insert = db.prepare(`INSERT INTO call (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map(() => "?").join(", ")})`);
    const tag = db.prepare(`INSERT INTO call_tag (${TAG_COLUMNS.join(", ")}) VALUES (${TAG_COLUMNS.map(() => "?").join(", ")})`);
    db.transaction(() => {
      for (const row of seededRows(ids, true)) {
        insert.run(...row.call);
        for (const t of row.tags) tag.run(...t);
      }
    })();
    // The console's own indexer takes the backlog (a second indexer here would only fight it for the lock).
    const left = db.prepare(`SELECT (SELECT ifnull(max(rowid), 0) FROM "call") - indexed_through FROM call_search_state`).pluck();
    while (Number(left.get()) > 0) await new Promise((resolve) => setTimeout(resolve, 500));
    // What the console's hourly statistics upkeep does (lib/core/db/client.ts optimizeSqlite), as PostgreSQL's autovacuum would analyse.
    db.pragma("analysis_limit = 1000");
    db.pragma("optimize = 0x10002");
    db.pragma("wal_checkpoint(PASSIVE)");
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: sb.databaseUrl });
  await client.connect();
  try {
    const batch = 2000;
    let rows: unknown[][] = [];
    let tags: unknown[][] = [];
    const insert = async (table: string, columns: string[], values: unknown[][]) => {
      const tuples = values.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(", ")})`).join(", ");
      await client.query(`INSERT INTO "${table}" (${columns.join(", ")}) VALUES ${tuples}`, values.flat());
    };
    const flush = async () => {
      await insert("call", COLUMNS, rows);
      if (tags.length) await insert("call_tag", TAG_COLUMNS, tags);
      rows = [];
      tags = [];
    };
    for (const row of seededRows(ids, false)) {
      rows.push(row.call);
      tags.push(...row.tags);
      if (rows.length === batch) await flush();
    }
    if (rows.length) await flush();
    await client.query('VACUUM ANALYZE "call"');
    await client.query('VACUUM ANALYZE "call_tag"');
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
    const only = process.env.BENCH_HISTORY_CASES ? new RegExp(process.env.BENCH_HISTORY_CASES) : null;
    const cases = historyCases({ serverIds, userId, deep: deep.id, now: Date.now() }).filter((c) => !only || only.test(c.name));
    const lines = [
      `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. Load average after seeding: ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}. ${ROWS.toLocaleString("en")} calls in one workspace (seeded${label === "SQLite" ? " and indexed for search" : ""} in ${(seedMs / 1000).toFixed(1)} s), ${label}; ${SAMPLES} requests per row through \`GET /api/v1/calls\` (50 per page).`,
      "",
      "| query | first request ms | p50 ms | p95 ms | rows | target p95 ≤ 50 ms |",
      "| --- | ---: | ---: | ---: | ---: | --- |",
    ];
    const timed = async (name: string, query: string) => {
      const start = performance.now();
      const res = await fetch(`${sb.url}/api/v1/calls?limit=50${query ? `&${query}` : ""}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { items?: unknown[] };
      if (!body.items) throw new Error(`${name}: ${JSON.stringify(body)}`);
      return { ms: performance.now() - start, rows: body.items.length };
    };
    // One request per row first, reported apart: right after seeding, the first ones read a cold
    // page cache (gigabytes just written), which is not what a person paging history meets.
    const first = new Map<string, number>();
    for (const { name, query } of cases) first.set(name, (await timed(name, query)).ms);
    for (const { name, query } of cases) {
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < SAMPLES; i++) {
        const t = await timed(name, query);
        times.push(t.ms);
        rows = t.rows;
      }
      const p95 = percentile(times, 95);
      lines.push(`| ${name} | ${first.get(name)!.toFixed(1)} | ${percentile(times, 50).toFixed(1)} | ${p95.toFixed(1)} | ${rows} | ${p95 <= 50 ? "met" : "**not met**"} |`);
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
