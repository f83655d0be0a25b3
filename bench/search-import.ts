import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { setupOwner, startConsole } from "../tests/support/console";
import { machine, percentile, writeSection } from "./report";

const ROWS = Number(process.env.BENCH_SEARCH_IMPORT_ROWS ?? 1_000_000);
/** shared: the indexer on the console's connection (the default); thread: in its own thread (SWITCHBOARD_SEARCH_INDEX_THREAD=1). */
const MODES = (process.env.BENCH_SEARCH_IMPORT_MODES ?? "shared").split(",").map((m) => m.trim());
const RARE = "zanzibar";
const WORDS = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega report invoice weather search".split(" ");
const COLUMNS = [
  "id", "workspace_id", "server_id", "user_id", "user_name", "method", "name", "params", "result", "status", "is_error",
  "request_id", "trace_id", "origin", "started_at", "finished_at", "duration_ms", "request_size", "result_size",
];

/** Calls shaped as bench/history.ts seeds them (one in 20,000 holds the rare word), written as an import does: no search index. */
function importCalls(file: string, workspaceId: string, userId: string, serverIds: string[]): number {
  const db = new Database(file);
  const insert = db.prepare(`INSERT INTO call (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map(() => "?").join(", ")})`);
  const stamp = (t: number) => new Date(t).toISOString().replace("Z", "+00:00");
  const now = Date.now();
  const span = 30 * 24 * 3600 * 1000;
  let rare = 0;
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const isRare = i % 20_000 === 7;
      rare += isRare ? 1 : 0;
      const t = now - span + Math.floor((i / ROWS) * span);
      const words = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}${isRare ? ` ${RARE}` : ""}`;
      insert.run(
        crypto.randomUUID(), workspaceId, serverIds[i % serverIds.length], userId, "Ada", "tools/call", `tool_${i % 30}`,
        JSON.stringify({ message: words, n: i }), JSON.stringify({ content: [{ type: "text", text: `Echo: ${words}` }] }),
        i % 13 === 0 ? "error" : "ok", 0, `seed-${i}`, crypto.randomBytes(16).toString("hex"), "user", stamp(t), stamp(t + 4), 3, 40, 60,
      );
    }
  })();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return rare;
}

type Case = { name: string; query: string };
type Outcome = { mode: string; startMs: number; searchableMs: number; samples: Map<string, number[]>; after: Map<string, number[]>; wrong: number; incomplete: number; resets: number; log: string; load: string };

/**
 * One console started on a copy of the imported file: history requests one after another, round
 * robin over `cases`, from its start until every call is indexed (the indexer's state read from a
 * connection of the bench's own), then 20 rounds more with everything indexed.
 */
async function measure(mode: string, seeded: string, token: string, cases: Case[], rare: number): Promise<Outcome> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-search-import-"));
  const file = path.join(dir, "test.db");
  fs.copyFileSync(seeded, file);
  const load = os.loadavg().map((l) => l.toFixed(2)).join(", ");
  const t0 = performance.now();
  const sb = await startConsole({ dataDir: dir, env: { SWITCHBOARD_SEARCH_INDEX_THREAD: mode === "thread" ? "1" : "0" } });
  const startMs = performance.now() - t0;
  const state = new Database(file, { readonly: true });
  const left = state.prepare(
    `SELECT (SELECT max(rowid) FROM "call") - (SELECT indexed_through FROM call_search_state) + (SELECT count(*) FROM call_search_unindexed)`,
  ).pluck();
  const samples = new Map(cases.map((c) => [c.name, [] as number[]]));
  const after = new Map(cases.map((c) => [c.name, [] as number[]]));
  let wrong = 0;
  let incomplete = 0;
  let resets = 0;
  const get = async (c: Case, into: Map<string, number[]>) => {
    const start = performance.now();
    const url = `${sb.url}/api/v1/calls?limit=50&${c.query}`;
    const headers = { authorization: `Bearer ${token}` };
    // A kept-alive socket the console closed as this request left (ECONNRESET): sent again once, and counted.
    const res = await fetch(url, { headers }).catch(() => (resets++, fetch(url, { headers })));
    const body = (await res.json()) as { items?: unknown[]; searchIncomplete?: boolean };
    into.get(c.name)!.push(performance.now() - start);
    if (!body.items) throw new Error(`${c.name}: ${JSON.stringify(body)}`);
    // Exact whatever the indexer has reached (every call with the rare word, a full page otherwise),
    // unless the answer says it searched only the newest of the calls not indexed yet.
    if (body.searchIncomplete) incomplete++;
    else if (body.items.length !== (c.query.includes(RARE) ? Math.min(50, rare) : 50)) wrong++;
  };
  let searchableMs = 0;
  try {
    while (!searchableMs) {
      for (const c of cases) await get(c, samples);
      if (left.get() === 0) searchableMs = performance.now() - t0;
    }
    for (let i = 0; i < 20; i++) for (const c of cases) await get(c, after);
    return { mode, startMs, searchableMs, samples, after, wrong, incomplete, resets, log: sb.logs().match(/\[search\] indexed .*/)?.[0] ?? "(no indexer log line)", load };
  } finally {
    state.close();
    await sb.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A million calls arrive unindexed (an upgrade, an import); how long until search answers from the index, and history meanwhile. */
export async function benchSearchImport(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-search-seed-"));
  const sb = await startConsole({ dataDir: dir });
  let seeded = "";
  try {
    const { api, token, workspace } = await setupOwner(sb.url);
    const serverIds: string[] = [];
    for (let i = 0; i < 20; i++) serverIds.push((await api("POST", "/api/v1/servers", { name: `s${i}`, url: "http://127.0.0.1:9/mcp" })).body.server.id);
    const me = (await api("GET", "/api/v1/me")).body;
    await sb.stop();
    const t0 = performance.now();
    const rare = importCalls(sb.dbFile, workspace.id, (me.user ?? me).id as string, serverIds);
    const importMs = performance.now() - t0;
    seeded = sb.dbFile;
    const cases: Case[] = [
      { name: "newest page", query: "" },
      { name: "free text (common word)", query: "q=weather" },
      { name: `free text (rare word)`, query: `q=${RARE}` },
      { name: "server", query: `serverId=${serverIds[1]}` },
    ];
    const outcomes: Outcome[] = [];
    for (const mode of MODES) outcomes.push(await measure(mode, seeded, token, cases, rare));

    const ms = (v: number) => v.toFixed(1);
    const lines = [
      `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. ${ROWS.toLocaleString("en")} calls written straight into the SQLite file with the console stopped (${(importMs / 1000).toFixed(1)} s; the search index not told, as after an upgrade or an import), then the console started on a copy of that file per mode (${MODES.join(", ")}, one after the other). History requests one at a time through \`GET /api/v1/calls\` (50 per page), round robin over the rows below, from the console's start until every call is indexed, then 20 rounds more. Searchable: the search index holds every call (state read by the bench's own connection), counted from the console's start. While more than 20,000 calls wait (SWITCHBOARD_SEARCH_TAIL_SCAN), a search scans the newest of them and its answer says \`searchIncomplete\` (counted, not wrong); any other answer must be exact.`,
      "",
      "| mode | load average at start | console up | searchable after | target ≤ 60 s | indexer's log | answers marked incomplete | wrong answers | connections reset |",
      "| --- | --- | ---: | ---: | --- | --- | ---: | ---: | ---: |",
      ...outcomes.map((o) => `| ${o.mode} | ${o.load} | ${(o.startMs / 1000).toFixed(1)} s | ${(o.searchableMs / 1000).toFixed(1)} s | ${o.searchableMs <= 60_000 ? "met" : "**not met**"} | ${o.log.replace("[search] ", "")} | ${o.incomplete} | ${o.wrong} | ${o.resets} |`),
      "",
      "| mode | query | while indexing: requests | p50 ms | p95 ms | max ms | target p95 ≤ 100 ms | indexed: p50 ms | p95 ms |",
      "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
    ];
    for (const o of outcomes) {
      for (const c of cases) {
        const during = o.samples.get(c.name)!;
        const done = o.after.get(c.name)!;
        const p95 = percentile(during, 95);
        lines.push(
          `| ${o.mode} | ${c.name} | ${during.length} | ${ms(percentile(during, 50))} | ${ms(p95)} | ${ms(Math.max(...during))} | ${p95 <= 100 ? "met" : "**not met**"} | ${ms(percentile(done, 50))} | ${ms(percentile(done, 95))} |`,
        );
      }
    }
    writeSection("Search after an import, SQLite", lines.join("\n"));
    console.log(lines.join("\n"));
  } catch (err) {
    console.error(sb.logs().slice(-4000));
    throw err;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
