import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { apiClient, sessionCookie, setupOwner, startConsole } from "../tests/support/console";
import { startEverything } from "../tests/support/servers";
import { machine, writeSection } from "./report";

// SWITCHBOARD_BENCH_MEMORY_MINUTES shortens the run (a smoke run) or, at 0, skips it.
const MINUTES = Number(process.env.SWITCHBOARD_BENCH_MEMORY_MINUTES ?? 10);
// SWITCHBOARD_BENCH_MEMORY_SNAPSHOTS=1 writes a V8 heap snapshot at the reference point and at the end.
const SNAPSHOTS = process.env.SWITCHBOARD_BENCH_MEMORY_SNAPSHOTS === "1";
const CLIENTS = 64;
const SAMPLE_MS = 5000;
const PROBE = path.resolve(import.meta.dirname, "memory-probe.cjs");
const MiB = 2 ** 20;

interface Point {
  t: number; // ms since the load started
  rss: number; // bytes
  calls: number; // completed so far
}
interface Heap {
  pid: number;
  t: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

/** Resident set size of a process, in bytes, from /proc. */
function rssBytes(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line![1]) * 1024;
}

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" / ");
const mib = (bytes: number) => (bytes / MiB).toFixed(1);
const nearest = <T extends { t: number }>(points: T[], t: number) => points.reduce((a, b) => (Math.abs(b.t - t) < Math.abs(a.t - t) ? b : a));

/**
 * Target: console RSS after 10 minutes of 64 concurrent API clients within 10 % of its value after
 * the first minute. Each client has its own API token and calls echo on server-everything (Streamable
 * HTTP on loopback) through `POST /api/v1/servers/:id/tools/call`, back to back.
 */
export async function benchMemory(): Promise<void> {
  if (!(MINUTES > 0)) {
    console.log("Memory bench skipped (SWITCHBOARD_BENCH_MEMORY_MINUTES=0).");
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-memory-"));
  const probe = path.join(dir, "heap.jsonl");
  const everything = await startEverything("streamableHttp");
  const sb = await startConsole({
    env: { SWITCHBOARD_BENCH_MEMORY_PROBE: probe },
    nodeArgs: ["--require", PROBE, ...(SNAPSHOTS ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${dir}`] : [])],
  });
  try {
    const { api, email, password } = await setupOwner(sb.url);
    const server = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server;
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

    const durationMs = MINUTES * 60_000;
    // The first minute, or the first half of a run shorter than two minutes (a smoke run).
    const refMs = Math.min(60_000, durationMs / 2);
    const loadAtStart = load();
    const t0 = Date.now();
    const points: Point[] = [{ t: 0, rss: rssBytes(sb.pid()), calls: 0 }];
    const sampler = setInterval(() => points.push({ t: Date.now() - t0, rss: rssBytes(sb.pid()), calls }), SAMPLE_MS);
    const snapshotAtRef = SNAPSHOTS ? setTimeout(() => process.kill(sb.pid(), "SIGUSR2"), refMs) : undefined;
    await Promise.all(
      tokens.map(async (token) => {
        while (Date.now() - t0 < durationMs) {
          try {
            await callOnce(token);
            calls++;
          } catch (err) {
            if (err instanceof TypeError) unanswered++;
            else failed++;
            firstError ||= `${err}${(err as Error).cause ? ` (${(err as Error).cause})` : ""}`;
          }
        }
      }),
    );
    clearInterval(sampler);
    clearTimeout(snapshotAtRef);
    const elapsed = Date.now() - t0;
    points.push({ t: elapsed, rss: rssBytes(sb.pid()), calls });
    const loadAtEnd = load();
    if (SNAPSHOTS) process.kill(sb.pid(), "SIGUSR2");
    // The probe writes every 5 s: wait for one line after the load ended.
    const probeLines = () => (fs.existsSync(probe) ? fs.readFileSync(probe, "utf8").trim().split("\n").filter(Boolean) : []);
    const linesAtEnd = probeLines().length;
    for (let i = 0; i < 80 && probeLines().length === linesAtEnd; i++) await new Promise((r) => setTimeout(r, 100));
    const heap: Heap[] = probeLines()
      .map((l) => JSON.parse(l) as Heap)
      .filter((m) => m.pid === sb.pid())
      .map((m) => ({ ...m, t: m.t - t0 }));

    const ref = nearest(points, refMs);
    const end = points.at(-1)!;
    const peak = Math.max(...points.map((p) => p.rss));
    const ratio = end.rss / ref.rss;
    const rows = (await sb.db.get<{ n: number | bigint; ok: number | bigint }>(
      `SELECT COUNT(*) AS n, SUM(CASE WHEN status = 'ok' THEN 1 ELSE 0 END) AS ok FROM "call" WHERE server_id = ?`,
      server.id,
    ))!;
    const answered = calls + failed;
    // A request that got no answer may or may not have reached the console (and made a row).
    const recorded = Number(rows.ok) === calls && Number(rows.n) >= answered && Number(rows.n) <= answered + unanswered;

    const lines = [
      `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. Load average (1/5/15 min) ${loadAtStart} at the start, ${loadAtEnd} at the end (the machine is shared).`,
      `${CLIENTS} API clients (one token each) calling echo on server-everything (Streamable HTTP, loopback) back to back through \`POST /api/v1/servers/:id/tools/call\` for ${(elapsed / 60_000).toFixed(1)} min; console RSS from /proc every ${SAMPLE_MS / 1000} s, V8 heap from \`process.memoryUsage()\` (bench/memory-probe.cjs).`,
      "",
      "| minute | RSS MiB | heap used MiB | heap total MiB | external MiB | calls/s in the minute |",
      "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ];
    for (let minute = 1; minute * 60_000 <= elapsed + SAMPLE_MS; minute++) {
      const p = nearest(points, minute * 60_000);
      const before = nearest(points, (minute - 1) * 60_000);
      const h = heap.length ? nearest(heap, minute * 60_000) : undefined;
      const rate = ((p.calls - before.calls) * 1000) / Math.max(1, p.t - before.t);
      lines.push(`| ${minute} | ${mib(p.rss)} | ${h ? mib(h.heapUsed) : "–"} | ${h ? mib(h.heapTotal) : "–"} | ${h ? mib(h.external) : "–"} | ${rate.toFixed(0)} |`);
    }
    const refHeap = heap.length ? nearest(heap, refMs) : undefined;
    const endHeap = heap.at(-1);
    lines.push(
      "",
      `- RSS after ${(ref.t / 60_000).toFixed(1)} min: ${mib(ref.rss)} MiB; after ${(end.t / 60_000).toFixed(1)} min: ${mib(end.rss)} MiB (peak ${mib(peak)} MiB): ${ratio.toFixed(3)}× (target ≤ 1.10×: ${ratio <= 1.1 ? "met" : "NOT met"}).`,
      refHeap && endHeap ? `- V8 heap used: ${mib(refHeap.heapUsed)} MiB at the reference point, ${mib(endHeap.heapUsed)} MiB at the end.` : "- V8 heap: no probe samples.",
      `- Calls: ${calls} ok, ${failed} answered with an error, ${unanswered} requests without an answer${firstError ? ` (first failure: ${firstError.slice(0, 200)})` : ""}; ${((calls * 1000) / elapsed).toFixed(0)} calls/s overall. Recorded: ${Number(rows.n)} rows, ${Number(rows.ok)} ok, for ${answered} answered calls (${recorded ? "every answered call recorded" : "MISMATCH"}).`,
    );
    if (SNAPSHOTS) lines.push(`- Heap snapshots: ${fs.readdirSync(dir).filter((f) => f.endsWith(".heapsnapshot")).join(", ")} in ${dir}.`);
    writeSection("Memory (64 concurrent API clients)", lines.join("\n"));
    console.log(lines.join("\n"));
  } finally {
    await sb.stop();
    await everything.stop();
    if (!SNAPSHOTS) fs.rmSync(dir, { recursive: true, force: true });
  }
}
