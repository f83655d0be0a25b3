import { execFileSync } from "node:child_process";
import os from "node:os";
import { setupOwner, type ConsoleHandle } from "../tests/support/console";
import { seed } from "./history";
import { machine, onBothDatabases, percentile, writeSection } from "./report";

const ROWS = Number(process.env.BENCH_HISTORY_ROWS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_STATS_SAMPLES ?? 60);
const DAY = 24 * 3600 * 1000;

/** The dashboard (`GET /api/v1/stats`) at `ROWS` calls spread over 30 days: ranges of a day, a week and the whole month, for the workspace and one server. */
async function benchStatsOn(sb: ConsoleHandle, label: string): Promise<void> {
  try {
    const { api, token, workspace } = await setupOwner(sb.url);
    const serverIds: string[] = [];
    for (let i = 0; i < 20; i++) serverIds.push((await api("POST", "/api/v1/servers", { name: `s${i}`, url: "http://127.0.0.1:9/mcp" })).body.server.id);
    const me = (await api("GET", "/api/v1/me")).body;
    const t0 = performance.now();
    await seed(sb, { workspaceId: workspace.id, userId: (me.user ?? me).id as string, serverIds });
    const seedMs = performance.now() - t0;
    // Seeding blocked this process for seconds: keep-alive sockets the console closed meanwhile fail once each.
    for (let i = 0; i < 10; i++) if (await fetch(`${sb.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } }).then(() => true, () => false)) break;
    // The first request rolls up every closed hour of the seeded month (what an upgraded console does once).
    const t1 = performance.now();
    const first = await fetch(`${sb.url}/api/v1/stats`, { headers: { authorization: `Bearer ${token}` } });
    if (first.status !== 200) throw new Error(`first stats request: ${first.status} ${await first.text()}`);
    const rollupMs = performance.now() - t1;
    const rollupRows = Number((await sb.db.get<{ n: number | string }>("SELECT count(*) AS n FROM call_rollup"))!.n);
    const coarseRows = Number((await sb.db.get<{ n: number | string }>("SELECT count(*) AS n FROM call_rollup WHERE grain IN (360, 1440)"))!.n);
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const now = Date.now();
    const lines = [
      `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. Commit: ${commit}. ${ROWS.toLocaleString("en")} calls over 30 days in one workspace, 20 servers (seeded in ${(seedMs / 1000).toFixed(1)} s), ${label}; ${SAMPLES} requests per row through \`GET /api/v1/stats\` (series with p50/p95 per bucket, totals, top tools, by user, by origin: the dashboard's one request), the bucket derived from the range.`,
      "",
      `The first request after seeding rolled up the month's ${(30 * 24).toLocaleString("en")} closed hours in ${(rollupMs / 1000).toFixed(1)} s (${rollupRows.toLocaleString("en")} rollup rows, ${coarseRows.toLocaleString("en")} of them for 6-hour periods and days, summed from the hours); the requests below read whole days, then 6-hour periods, hours and quarter hours at the range's ends from those rollups, and the rest (the current hour, the range's ragged ends) from the call table.`,
      "",
      "| range | scope | calls in range | p50 ms | p95 ms | target p95 ≤ 50 ms |",
      "| --- | --- | ---: | ---: | ---: | --- |",
    ];
    for (const [range, days] of [["last 24 hours", 1], ["last 7 days", 7], ["last 30 days", 30]] as const) {
      for (const [scope, serverId] of [["workspace", ""], ["one server", serverIds[1]]] as const) {
        const query = `from=${new Date(now - days * DAY).toISOString()}&to=${new Date(now).toISOString()}${serverId ? `&serverId=${serverId}` : ""}`;
        const times: number[] = [];
        let count = 0;
        for (let i = 0; i < SAMPLES; i++) {
          const start = performance.now();
          const res = await fetch(`${sb.url}/api/v1/stats?${query}`, { headers: { authorization: `Bearer ${token}` } });
          const body = (await res.json()) as { totals?: { count: number } };
          times.push(performance.now() - start);
          if (!body.totals) throw new Error(`${range} ${scope}: ${JSON.stringify(body)}`);
          count = body.totals.count;
        }
        const p95 = percentile(times, 95);
        lines.push(`| ${range} | ${scope} | ${count.toLocaleString("en")} | ${percentile(times, 50).toFixed(1)} | ${p95.toFixed(1)} | ${p95 <= 50 ? "met" : "**not met**"} |`);
        console.log(lines[lines.length - 1]);
      }
    }
    // Timings on a shared machine mean little without its load.
    lines.push("", `Load average (1 min) at the end of the run: ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores.`);
    writeSection(`Dashboard at a million calls, ${label}`, lines.join("\n"));
    console.log(lines.join("\n"));
  } catch (err) {
    console.error(sb.logs().slice(-4000));
    throw err;
  } finally {
    await sb.stop();
  }
}

export async function benchStats(): Promise<void> {
  await onBothDatabases("bench_stats", benchStatsOn);
}
