import { spawnSync } from "node:child_process";
import os from "node:os";
import { setupOwner, type ConsoleHandle } from "../tests/support/console";
import { machine, onBothDatabases, writeSection } from "./report";

const CALLS = Number(process.env.BENCH_JOURNAL_CALLS ?? 20_000);

/**
 * Recording alone: how many calls per second the call journal makes durable (a pending row
 * committed, then its completion), 64 at a time, in a process of its own against the console's
 * database. The target (issue 13) is ≥ 5,000 recorded calls/s.
 */
export async function benchJournal(): Promise<void> {
  const lines = [
    `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. Load average at the start: ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}. ${CALLS.toLocaleString("en")} calls, 64 in flight, each a pending INSERT committed and then its completion UPDATE (lib/domains/calls/journal.ts), every index maintained; on SQLite the same process keeps the search index behind them (lib/domains/calls/search-index.ts): its CPU per call includes that indexing, finished after the last call.`,
    "",
    "| database | recorded calls/s | writer's CPU per call | search index caught up after the last call | rows recorded | target ≥ 5,000/s |",
    "| --- | ---: | ---: | ---: | ---: | --- |",
  ];
  // The worker is the one process writing (and indexing), as a console would be.
  const interval = process.env.SWITCHBOARD_SEARCH_INDEX_MS;
  process.env.SWITCHBOARD_SEARCH_INDEX_MS = "0";
  await onBothDatabases("bench_journal", async (sb: ConsoleHandle, label) => {
    try {
      const { api, workspace } = await setupOwner(sb.url);
      const server = (await api("POST", "/api/v1/servers", { name: "journal", url: "http://127.0.0.1:9/mcp" })).body.server;
      const me = (await api("GET", "/api/v1/me")).body;
      const child = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "bench/workers/journal.ts"], {
        env: { ...process.env, SWITCHBOARD_SEARCH_INDEX_MS: interval ?? "1000", DATABASE_URL: sb.databaseUrl, WORKSPACE_ID: workspace.id, SERVER_ID: server.id, USER_ID: (me.user ?? me).id, CALLS: String(CALLS) },
        encoding: "utf8",
      });
      if (child.status !== 0) throw new Error(`journal worker failed: ${child.stderr}`);
      const out = JSON.parse(child.stdout.trim().split("\n").at(-1)!) as { rate: number; cpuIndexedMs: number; indexedAfterMs: number };
      const row = (await sb.db.get<{ n: number | bigint }>(`SELECT COUNT(*) AS n FROM "call" WHERE server_id = ? AND status = 'ok'`, server.id))!;
      const sqlite = sb.db.provider === "sqlite";
      if (sqlite) {
        const left = (await sb.db.get<{ n: number }>(`SELECT (SELECT count(*) FROM "call" WHERE rowid > (SELECT indexed_through FROM call_search_state)) + (SELECT count(*) FROM call_search_unindexed) AS n`))!;
        if (Number(left.n)) throw new Error(`${left.n} call(s) left out of the search index`);
      }
      lines.push(
        `| ${label} | ${Math.round(out.rate).toLocaleString("en")} | ${(out.cpuIndexedMs / CALLS).toFixed(3)} ms | ${sqlite ? `${Math.round(out.indexedAfterMs)} ms` : "—"} | ${Number(row.n).toLocaleString("en")} of ${CALLS.toLocaleString("en")} | ${out.rate >= 5000 ? "met" : "not met"} |`,
      );
    } finally {
      await sb.stop();
    }
  });
  if (interval === undefined) delete process.env.SWITCHBOARD_SEARCH_INDEX_MS;
  else process.env.SWITCHBOARD_SEARCH_INDEX_MS = interval;
  writeSection("Recording (the call journal)", lines.join("\n"));
  console.log(lines.join("\n"));
}
