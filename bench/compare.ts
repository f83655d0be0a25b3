/**
 * `npm run bench:compare BASE [--write] [--keep]`: this tree's console against BASE's (a git
 * revision, checked out and built in a worktree under the temp directory: bench/compare-tree.ts),
 * both compiled servers running at once, measured in the same interleaved rounds (the order reversed
 * every other round): echo through the API, API → relay → agent → stdio, the gateway, then pages
 * under signed-in people. Prints base, head and head ÷ base with the load average; `--write` puts
 * it in docs/benchmarks.md (BENCH_DOCS elsewhere), `--keep` keeps the built base for the next run.
 * BENCH_CALLS (1000 per row), BENCH_ROUNDS (4), BENCH_WARMUP (500), BENCH_PAGE_ROUNDS (4), BENCH_PEOPLE (16).
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { everythingStdio, startEverything } from "../tests/support/servers";
import { ROW, startSide, type Side } from "./compare-side";
import { migratedBaseDatabase, prepareBase } from "./compare-tree";
import { echo } from "./gateway";
import { interleave, type Interleaved } from "./interleave";
import { machine, table, writeSection } from "./report";
import { loadAverage, StageLog } from "./stages";
import { interleavedLoad, summarize } from "./ui-load";

const ROOT = path.resolve(import.meta.dirname, "..");
const TOTAL = Number(process.env.BENCH_CALLS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 500);
const PAGE_ROUNDS = Number(process.env.BENCH_PAGE_ROUNDS ?? 4);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 16);
const PAGES = ["/", "/servers", "/history", "/calls/[id]", "/settings/tokens", "/s/[token]", "/s/[token] (not found)", "/oauth/consent"];
const DIRECT_HTTP = "direct SDK (HTTP)";
const DIRECT_STDIO = "direct SDK (stdio)";

const { positionals, values } = parseArgs({ allowPositionals: true, options: { write: { type: "boolean", default: false }, keep: { type: "boolean", default: false } } });
if (positionals.length !== 1) throw new Error("usage: npm run bench:compare BASE [-- --write] [--keep]");

/** The current tree: HEAD's commit, and "+ changes" when the tree differs from it. */
function headLabel(): string {
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: ROOT, encoding: "utf8" }).trim();
  return dirty ? `${commit} + changes` : commit;
}

/** This tree's server compiled for this run (as tests/support/compile-setup.ts does): never a stale dist/. */
function compileHead(): string {
  const dir = path.join(ROOT, `.dist-test-${process.pid}`);
  const out = spawnSync(process.execPath, ["scripts/compile-server.mjs", "--outdir", path.relative(ROOT, dir)], { cwd: ROOT, encoding: "utf8" });
  if (out.status !== 0) throw new Error(`scripts/compile-server.mjs failed:\n${out.stdout}${out.stderr}`);
  process.env.SWITCHBOARD_TEST_SERVER_ENTRY = path.join(dir, "server.mjs");
  return dir;
}

function metricRows(run: Interleaved, base: Side, head: Side): string[] {
  const fmt = (n: number, unit: string) => (unit === "×" ? `${n.toFixed(2)}×` : `${n.toFixed(2)} ${unit}`);
  const line = (metric: string, b: number, h: number, unit: string) => `| ${metric} | ${fmt(b, unit)} | ${fmt(h, unit)} | ${(h / b).toFixed(2)} |`;
  const out = ["| row | base | head | head ÷ base |", "| --- | ---: | ---: | ---: |"];
  for (const [row, direct] of [[ROW.api, DIRECT_HTTP], [ROW.relay, DIRECT_STDIO], [ROW.gateway, DIRECT_HTTP]] as const) {
    const of = (side: Side, n: number) => run.at(`${side.name} ${row}`, n);
    const d1 = run.at(direct, 1).p50;
    const d16 = run.at(direct, 16).rate;
    out.push(line(`${row}: added p50 over ${direct} at 1 in flight`, of(base, 1).p50 - d1, of(head, 1).p50 - d1, "ms"));
    out.push(line(`${row}: calls/s ÷ ${direct} at 16 in flight`, of(base, 16).rate / d16, of(head, 16).rate / d16, "×"));
    for (const n of [1, 16]) out.push(line(`${row}: console CPU per call at ${n} in flight`, run.cpu.get(`${base.name} ${row}@${n}`)!, run.cpu.get(`${head.name} ${row}@${n}`)!, "ms"));
  }
  return out;
}

function pageRows(runs: ReturnType<typeof summarize>[]): string[] {
  const [b, h] = runs as [ReturnType<typeof summarize>, ReturnType<typeof summarize>];
  const line = (metric: string, x: number, y: number, unit = "ms") => `| ${metric} | ${x.toFixed(1)} ${unit} | ${y.toFixed(1)} ${unit} | ${(y / x).toFixed(2)} |`;
  return [
    line(`pages (${PAGES.length}), ${PEOPLE} people: p50 of every page`, b.p50, h.p50),
    line(`pages: p95 of every page`, b.p95, h.p95),
    `| pages: console CPU per request | ${b.cpuMs.toFixed(2)} ms | ${h.cpuMs.toFixed(2)} ms | ${(h.cpuMs / b.cpuMs).toFixed(2)} |`,
    ...b.perPage.map((p, i) => line(`page ${p.route}: p95`, p.p95, h.perPage[i]!.p95)),
  ];
}

const base = prepareBase(positionals[0]!, { keep: values.keep });
const sides: Side[] = [];
const clients: Client[] = [];
let compiled = "";
let baseDatabase = "";
let everything: Awaited<ReturnType<typeof startEverything>> | undefined;
try {
  compiled = compileHead();
  baseDatabase = migratedBaseDatabase(base.dir);
  everything = await startEverything("streamableHttp");
  const stages = new StageLog();
  const common = { everythingUrl: everything.url, stages, pages: PAGES, people: PEOPLE };
  sides.push(await startSide({ ...common, name: "base", root: base.dir, databaseUrl: baseDatabase }));
  sides.push(await startSide({ ...common, name: "head" }));
  const [b, h] = sides as [Side, Side];
  const direct = new Client({ name: "bench", version: "0" });
  await direct.connect(new StreamableHTTPClientTransport(new URL(everything.url)));
  const directStdio = new Client({ name: "bench", version: "0" });
  await directStdio.connect(new StdioClientTransport(everythingStdio()));
  clients.push(direct, directStdio);
  const paths = [{ label: DIRECT_HTTP, call: echo(direct) }, { label: DIRECT_STDIO, call: echo(directStdio) }, ...b.paths, ...h.paths];

  const loadBefore = loadAverage();
  const t0 = performance.now();
  const run = await interleave(paths, { rounds: ROUNDS, total: TOTAL, warmup: WARMUP, stages });
  const loadAfterCalls = loadAverage();
  const pageRuns = (await interleavedLoad([b.load, h.load], PAGE_ROUNDS)).map(summarize);
  const lines = [
    `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${machine()}. Base ${base.commit}, head ${headLabel()}, both compiled servers on SQLite, running at once. ${TOTAL} echo calls per row in ${ROUNDS} rounds (every row in each round, the order reversed every other round) after ${WARMUP} warm-up calls per row; then ${PAGE_ROUNDS} rounds of ${PEOPLE} signed-in people loading ${PAGES.length} pages, the consoles alternating. Load average ${loadBefore} at the start, ${loadAfterCalls} after the calls, ${loadAverage()} at the end (${((performance.now() - t0) / 1000).toFixed(0)} s) on ${os.cpus().length} cores.`,
    "",
    ...metricRows(run, b, h),
    ...pageRows(pageRuns),
    "",
    ...table(run.samples),
    "",
    ...stages.lines(sides.flatMap((s) => [ROW.api, ROW.relay, ROW.gateway].flatMap((r) => [1, 16].map((n) => `${s.name} ${r} @${n}`)))),
  ];
  const body = lines.join("\n");
  console.log(`\n${body}\n`);
  if (values.write) writeSection(`bench:compare, ${base.commit} → ${headLabel()}, ${new Date().toISOString().slice(0, 10)}`, body);
} finally {
  await Promise.allSettled(clients.map((c) => c.close()));
  for (const s of sides) await s.close();
  await everything?.stop();
  if (compiled) fs.rmSync(compiled, { recursive: true, force: true });
  if (baseDatabase) fs.rmSync(path.dirname(baseDatabase.slice("file:".length)), { recursive: true, force: true });
  base.remove();
}
