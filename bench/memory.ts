import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { apiClient, sessionCookie, setupOwner, startConsole } from "../tests/support/console";
import { startEverything } from "../tests/support/servers";
import { machine, writeSection } from "./report";

// SWITCHBOARD_BENCH_MEMORY_SECONDS: how long the load lasts (0 skips the bench); _AFTER_SECONDS: how
// long RSS is followed once it stops; _CLIENTS: concurrent API clients.
const LOAD_S = Number(process.env.SWITCHBOARD_BENCH_MEMORY_SECONDS ?? 60);
const AFTER_S = Number(process.env.SWITCHBOARD_BENCH_MEMORY_AFTER_SECONDS ?? 60);
const CLIENTS = Number(process.env.SWITCHBOARD_BENCH_MEMORY_CLIENTS ?? 64);
// SWITCHBOARD_BENCH_MEMORY_SNAPSHOTS=1 writes a V8 heap snapshot before the load, at its end and at the end of the run.
const SNAPSHOTS = process.env.SWITCHBOARD_BENCH_MEMORY_SNAPSHOTS === "1";
// Consoles to compare, run alternately in one run (SWITCHBOARD_BENCH_MEMORY_VARIANTS=shipped,before; _ROUNDS).
const VARIANTS: Record<string, { label: string; env?: Record<string, string>; nodeArgs?: string[] }> = {
  shipped: { label: "as shipped" },
  before: { label: "source maps for every module (SWITCHBOARD_SOURCE_MAPS=all, as before)", env: { SWITCHBOARD_SOURCE_MAPS: "all" } },
  "no-idle-gc": { label: "no collection when the load stops (SWITCHBOARD_IDLE_GC_MS=0)", env: { SWITCHBOARD_IDLE_GC_MS: "0" } },
};
const CHOSEN = (process.env.SWITCHBOARD_BENCH_MEMORY_VARIANTS ?? "shipped").split(",").map((v) => v.trim());
const ROUNDS = Number(process.env.SWITCHBOARD_BENCH_MEMORY_ROUNDS ?? 1);
const TARGET = 1.25;
const SAMPLE_MS = 5000;
const PROBE = path.resolve(import.meta.dirname, "memory-probe.cjs");
const MiB = 2 ** 20;

interface Usage {
  t: number; // ms since the probe started
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  spaces: Record<string, number>;
}
interface Point {
  phase: string;
  rss: number; // from /proc, bytes
  usage?: Usage; // the probe's nearest line
  load: string;
}
interface Run {
  variant: string;
  round: number;
  before: Point;
  loadEnd: Point;
  peakRss: number;
  after: { s: number; point: Point }[];
  calls: number;
  failed: number;
  unanswered: number;
  firstError: string;
  rows: { n: number; ok: number };
  recorded: boolean;
  rate: number;
  snapshots: string[];
}

/** Resident set size of a process, in bytes, from /proc. */
function rssBytes(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line![1]) * 1024;
}

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" / ");
const mib = (bytes: number) => (bytes / MiB).toFixed(1);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Target (issue 28): the console's RSS back within 1.25× of its value before the load within 60 s
 * after the load stops. Before: after sign-in, every client's token, a few calls and the pages a
 * user opens, so the code is loaded. Load: CLIENTS API clients, each with its own token, calling
 * echo on server-everything (Streamable HTTP on loopback) through
 * `POST /api/v1/servers/:id/tools/call`, back to back, for LOAD_S. After: RSS every 5 s.
 */
export async function benchMemory(): Promise<void> {
  if (!(LOAD_S > 0)) {
    console.log("Memory bench skipped (SWITCHBOARD_BENCH_MEMORY_SECONDS=0).");
    return;
  }
  const runs: Run[] = [];
  const everything = await startEverything("streamableHttp");
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const variant of CHOSEN) {
        if (!VARIANTS[variant]) throw new Error(`unknown memory bench variant ${variant}`);
        runs.push(await runOnce(variant, round, everything.url));
        console.log(summary(runs.at(-1)!));
      }
    }
  } finally {
    await everything.stop();
  }
  writeSection("Memory (64 concurrent API clients)", report(runs).join("\n"));
}

async function runOnce(variant: string, round: number, everythingUrl: string): Promise<Run> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-memory-"));
  const probe = path.join(dir, "heap.jsonl");
  const { env, nodeArgs } = VARIANTS[variant]!;
  const sb = await startConsole({
    env: { ...env, SWITCHBOARD_BENCH_MEMORY_PROBE: probe },
    nodeArgs: [...(nodeArgs ?? []), "--require", PROBE, ...(SNAPSHOTS ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${dir}`] : [])],
  });
  const usages = (): Usage[] =>
    (fs.existsSync(probe) ? fs.readFileSync(probe, "utf8").trim().split("\n").filter(Boolean) : [])
      .map((l) => JSON.parse(l) as Usage & { pid: number })
      .filter((u) => u.pid === sb.pid());
  // The probe's next line after now: heap figures taken after the moment the RSS is read.
  const point = async (phase: string): Promise<Point> => {
    const rss = rssBytes(sb.pid());
    const now = Date.now();
    let usage: Usage | undefined;
    for (let i = 0; i < 30 && !usage; i++) {
      usage = usages().find((u) => u.t >= now);
      if (!usage) await pause(100);
    }
    return { phase, rss, usage, load: load() };
  };
  const snapshot = () => SNAPSHOTS && process.kill(sb.pid(), "SIGUSR2");
  try {
    const { api, email, password } = await setupOwner(sb.url);
    const server = (await api("POST", "/api/v1/servers", { name: "everything", url: everythingUrl })).body.server;
    await api("POST", `/api/v1/servers/${server.id}/connect`);
    const cookie = await sessionCookie(sb.url, email, password);
    const browser = apiClient(sb.url);
    const tokens: string[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const created = await browser("POST", "/api/v1/tokens", { name: `memory-${i}` }, { cookie });
      if (created.status !== 201) throw new Error(`token ${i}: ${created.status} ${JSON.stringify(created.body)}`);
      tokens.push(created.body.secret as string);
    }

    let calls = 0;
    let failed = 0; // answered, but not ok
    let unanswered = 0; // the request itself failed (no response from the console)
    let firstError = "";
    const callOnce = async (token: string) => {
      const res = await fetch(`${sb.url}/api/v1/servers/${server.id}/tools/call`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "echo", arguments: { message: "memory" } }),
      });
      const body = (await res.json()) as { call?: { status: string; error?: unknown }; error?: unknown };
      if (body.call?.status !== "ok") throw new Error(`${res.status} ${body.call?.status ?? ""} ${JSON.stringify(body.call?.error ?? body.error ?? body).slice(0, 300)}`);
    };
    const counted = async (token: string) => {
      try {
        await callOnce(token);
        calls++;
      } catch (err) {
        if (err instanceof TypeError) unanswered++;
        else failed++;
        firstError ||= `${err}${(err as Error).cause ? ` (${(err as Error).cause})` : ""}`;
      }
    };

    // Warm-up: the pages a signed-in user opens and a few calls per client, so the code is loaded.
    for (const page of ["/dashboard", "/servers", "/calls", "/history", `/servers/${server.id}`, "/settings"]) {
      const res = await fetch(`${sb.url}${page}`, { headers: { cookie } });
      await res.arrayBuffer();
    }
    await Promise.all(tokens.map(async (token) => { for (let i = 0; i < 3; i++) await counted(token); }));
    // What the warm-up allocated is not the footprint before the load: let one probe line pass.
    await pause(2000);
    snapshot();
    const before = await point("before");

    let peakRss = before.rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssBytes(sb.pid()))), 1000);
    const t0 = Date.now();
    await Promise.all(tokens.map(async (token) => { while (Date.now() - t0 < LOAD_S * 1000) await counted(token); }));
    const elapsed = Date.now() - t0;
    clearInterval(sampler);
    const loadEnd = await point("load end");
    peakRss = Math.max(peakRss, loadEnd.rss);
    snapshot();

    const after: Run["after"] = [];
    for (let s = SAMPLE_MS / 1000; s <= AFTER_S; s += SAMPLE_MS / 1000) {
      await pause(t0 + elapsed + s * 1000 - Date.now());
      after.push({ s, point: await point(`${s} s after`) });
    }
    snapshot();

    const rows = (await sb.db.get<{ n: number | bigint; ok: number | bigint }>(
      `SELECT COUNT(*) AS n, SUM(CASE WHEN status = 'ok' THEN 1 ELSE 0 END) AS ok FROM "call" WHERE server_id = ?`,
      server.id,
    ))!;
    const answered = calls + failed;
    // A request that got no answer may or may not have reached the console (and made a row).
    const recorded = Number(rows.ok) === calls && Number(rows.n) >= answered && Number(rows.n) <= answered + unanswered;
    const snapshots = SNAPSHOTS ? fs.readdirSync(dir).filter((f) => f.endsWith(".heapsnapshot")).map((f) => path.join(dir, f)) : [];
    return {
      variant, round, before, loadEnd, peakRss, after, calls, failed, unanswered, firstError, recorded, snapshots,
      rows: { n: Number(rows.n), ok: Number(rows.ok) },
      rate: (calls * 1000) / elapsed,
    };
  } finally {
    await sb.stop();
    if (!SNAPSHOTS) fs.rmSync(dir, { recursive: true, force: true });
  }
}

const ratioAt60 = (r: Run) => (r.after.find((a) => a.s === 60) ?? r.after.at(-1)!).point.rss / r.before.rss;
const backWithin = (r: Run) => r.after.find((a) => a.point.rss <= TARGET * r.before.rss)?.s;

function summary(r: Run): string {
  const within = backWithin(r);
  return `memory ${r.variant} round ${r.round}: RSS ${mib(r.before.rss)} → ${mib(r.loadEnd.rss)} (peak ${mib(r.peakRss)}) → ${mib(r.after.at(-1)!.point.rss)} MiB; ${ratioAt60(r).toFixed(2)}× at ${r.after.at(-1)!.s} s${within === undefined ? "" : `, within ${TARGET}× at ${within} s`}; ${r.calls} calls`;
}

function report(runs: Run[]): string[] {
  const first = runs[0]!;
  const lines = [
    `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. Load average (1/5/15 min) ${first.before.load} at the start, ${runs.at(-1)!.after.at(-1)!.point.load} at the end (the machine is shared).`,
    `Per run: a fresh console (\`NODE_ENV=production node --import tsx server.ts\`, SQLite); warm-up (sign-in, ${CLIENTS} tokens, the pages a user opens, 3 calls per client); then ${CLIENTS} API clients (one token each) calling echo on server-everything (Streamable HTTP, loopback) back to back through \`POST /api/v1/servers/:id/tools/call\` for ${LOAD_S} s; then nothing for ${AFTER_S} s. RSS from /proc; heap from \`process.memoryUsage()\` and \`v8.getHeapSpaceStatistics()\` in the console (bench/memory-probe.cjs), the line after each RSS reading.${runs.length > 1 ? " Variants alternate in this one run." : ""}`,
    "",
    "| console | round | point | RSS MiB | × before | heap used MiB | heap total MiB | old space MiB | new space MiB | external MiB | array buffers MiB | load avg |",
    "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const r of runs) {
    const label = VARIANTS[r.variant]!.label;
    for (const p of [r.before, r.loadEnd, ...r.after.map((a) => a.point)]) {
      const u = p.usage;
      const f = (v: number | undefined) => (u && v !== undefined ? mib(v) : "–");
      lines.push(
        `| ${label} | ${r.round} | ${p.phase} | ${mib(p.rss)} | ${(p.rss / r.before.rss).toFixed(2)} | ${f(u?.heapUsed)} | ${f(u?.heapTotal)} | ${f(u?.spaces.old_space)} | ${f(u?.spaces.new_space)} | ${f(u?.external)} | ${f(u?.arrayBuffers)} | ${p.load.split(" / ")[0]} |`,
      );
    }
  }
  lines.push("");
  for (const r of runs) {
    const label = VARIANTS[r.variant]!.label;
    const ratio = ratioAt60(r);
    const within = backWithin(r);
    lines.push(
      `- ${label}, round ${r.round}: RSS ${mib(r.before.rss)} MiB before, ${mib(r.loadEnd.rss)} MiB at the end of the load (peak ${mib(r.peakRss)} MiB), ${mib(r.after.at(-1)!.point.rss)} MiB ${r.after.at(-1)!.s} s after: **${ratio.toFixed(2)}×** (target ≤ ${TARGET}× within 60 s: ${ratio <= TARGET ? `met${within === undefined ? "" : `, from ${within} s after`}` : "NOT met"}). ` +
        `Calls: ${r.calls} ok at ${r.rate.toFixed(0)}/s, ${r.failed} answered with an error, ${r.unanswered} without an answer${r.firstError ? ` (first failure: ${r.firstError.slice(0, 200)})` : ""}; recorded: ${r.rows.n} rows, ${r.rows.ok} ok (${r.recorded ? "every answered call recorded" : "MISMATCH"}).`,
    );
    if (r.snapshots.length) lines.push(`  Heap snapshots: ${r.snapshots.join(", ")}.`);
  }
  return lines;
}
