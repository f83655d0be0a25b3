import crypto from "node:crypto";
import fs from "node:fs";
import Database from "better-sqlite3";
import { setupOwner, startConsole } from "../tests/support/console";
import { machine, percentile, writeSection } from "./report";

const ROWS = Number(process.env.BENCH_HISTORY_ROWS ?? 1_000_000);
const SAMPLES = 40;
const TOOLS = Array.from({ length: 30 }, (_, i) => `tool_${i}`);
const WORDS = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega report invoice weather search".split(" ");

/** Seeds `ROWS` calls straight into the database (the API would take hours), with a few rare values to look for. */
function seed(dbFile: string, ids: { workspaceId: string; userId: string; serverIds: string[] }): { rare: Record<string, string> } {
  const db = new Database(dbFile);
  const insert = db.prepare(
    `INSERT INTO call (id, workspace_id, server_id, user_id, user_name, method, name, params, result, status, is_error, request_id, trace_id, origin, started_at, finished_at, duration_ms, request_size, result_size)
     VALUES (?, ?, ?, ?, 'Ada', 'tools/call', ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, 3.5, 40, 60)`,
  );
  const now = Date.now();
  const span = 30 * 24 * 3600 * 1000;
  const [rareServer, ...common] = ids.serverIds;
  const rareUser = "rare-user";
  const stamp = (t: number) => new Date(t).toISOString().replace("Z", "+00:00");
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const rare = i % 20_000 === 7;
      const t = now - span + Math.floor((i / ROWS) * span);
      const words = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}${rare ? " zanzibar" : ""}`;
      insert.run(
        crypto.randomUUID(),
        ids.workspaceId,
        rare ? rareServer : common[i % common.length],
        rare ? rareUser : ids.userId,
        rare ? "rare_tool" : TOOLS[i % TOOLS.length],
        JSON.stringify({ message: words, n: i }),
        JSON.stringify({ content: [{ type: "text", text: `Echo: ${words}` }] }),
        i % 13 === 0 ? "error" : i % 97 === 0 ? "timeout" : "ok",
        `seed-${i}`,
        crypto.randomBytes(16).toString("hex"),
        i % 11 === 0 ? "app" : "user",
        stamp(t),
        stamp(t + 4),
      );
    }
  })();
  db.close();
  return { rare: { serverId: rareServer!, userId: rareUser, name: "rare_tool", q: "zanzibar" } };
}

/** History at `ROWS` calls: each documented filter, free text and a page 10,000 rows deep, through the API. */
export async function benchHistory(): Promise<void> {
  const sb = await startConsole();
  try {
    const { api, token, workspace } = await setupOwner(sb.url);
    const serverIds: string[] = [];
    for (let i = 0; i < 20; i++) serverIds.push((await api("POST", "/api/v1/servers", { name: `s${i}`, url: "http://127.0.0.1:9/mcp" })).body.server.id);
    const me = (await api("GET", "/api/v1/me")).body;
    const userId = (me.user ?? me).id as string;
    const sizeBefore = fs.statSync(sb.dbFile).size;
    const t0 = performance.now();
    const { rare } = seed(sb.dbFile, { workspaceId: workspace.id, userId, serverIds });
    const seedMs = performance.now() - t0;
    // Not readonly: the checkpoint writes the seeded WAL into the database file.
    const db = new Database(sb.dbFile);
    db.pragma("wal_checkpoint(PASSIVE)");
    const deep = db.prepare("SELECT id FROM call WHERE workspace_id = ? ORDER BY started_at DESC, id DESC LIMIT 1 OFFSET 10000").get(workspace.id) as { id: string };
    db.close();
    // Seeding blocked this process for seconds: the keep-alive socket the console closed meanwhile fails once.
    await fetch(`${sb.url}/api/v1/calls?limit=1`, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
    const week = new Date(Date.now() - 9 * 24 * 3600 * 1000).toISOString();
    const weekEnd = new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString();
    const cases: [string, string][] = [
      ["newest page", ""],
      ["server (common)", `serverId=${serverIds[1]}`],
      ["server (rare)", `serverId=${rare.serverId}`],
      ["tool (common)", `name=${TOOLS[3]}`],
      ["tool (rare)", `name=${rare.name}`],
      ["status error", "status=error"],
      ["status timeout", "status=timeout"],
      ["user (rare)", `userId=${rare.userId}`],
      ["time range (a week)", `from=${encodeURIComponent(week)}&to=${encodeURIComponent(weekEnd)}`],
      ["free text (common word)", "q=weather"],
      ["free text (rare word)", `q=${rare.q}`],
      ["page 10,000 rows deep", `cursor=${deep.id}`],
    ];
    const lines = [
      `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. ${ROWS.toLocaleString("en")} calls in one workspace (seeded in ${(seedMs / 1000).toFixed(1)} s), SQLite; ${SAMPLES} requests per row through \`GET /api/v1/calls\` (50 per page).`,
      "",
      "| query | p50 ms | p95 ms | rows | target p95 ≤ 50 ms |",
      "| --- | ---: | ---: | ---: | --- |",
    ];
    for (const [label, query] of cases) {
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < SAMPLES; i++) {
        const start = performance.now();
        const res = await fetch(`${sb.url}/api/v1/calls?limit=50${query ? `&${query}` : ""}`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await res.json()) as { items?: unknown[] };
        times.push(performance.now() - start);
        if (!body.items) throw new Error(`${label}: ${JSON.stringify(body)}`);
        rows = body.items.length;
      }
      const p95 = percentile(times, 95);
      lines.push(`| ${label} | ${percentile(times, 50).toFixed(1)} | ${p95.toFixed(1)} | ${rows} | ${p95 <= 50 ? "met" : "**not met**"} |`);
    }
    const sizeAfter = fs.statSync(sb.dbFile).size + (fs.existsSync(`${sb.dbFile}-wal`) ? fs.statSync(`${sb.dbFile}-wal`).size : 0);
    lines.push("", `Database file: ${((sizeAfter - sizeBefore) / 2 ** 20).toFixed(0)} MiB for the seeded calls, indexes included.`);
    writeSection("History at a million calls", lines.join("\n"));
    console.log(lines.join("\n"));
  } catch (err) {
    console.error(sb.logs().slice(-4000));
    throw err;
  } finally {
    await sb.stop();
  }
}
