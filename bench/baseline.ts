import { execFileSync } from "node:child_process";
import path from "node:path";
import { startConsole, type ConsoleHandle } from "../tests/support/console";
import { migratedBaseDatabase } from "./compare-tree";
import { row, type Sample } from "./report";

/**
 * BENCH_BASELINE_DIR=<another checkout, built>: a second console started from that checkout (its
 * compiled server, its .next, a fresh database its own migrations made), measured in the same
 * interleaved rounds as this tree's. `npm run bench:compare` (bench/compare.ts) checks out and
 * builds a revision itself.
 */
export interface Baseline {
  label: string;
  sb: ConsoleHandle;
}

export const BASELINE_DIR = process.env.BENCH_BASELINE_DIR;
/** Rounds of the interleaved rows: 1 without a baseline (the bench as it always ran). */
export const ROUNDS = BASELINE_DIR ? Number(process.env.BENCH_ROUNDS ?? 4) : 1;

export async function startBaseline(): Promise<Baseline | undefined> {
  if (!BASELINE_DIR) return undefined;
  const dir = path.resolve(BASELINE_DIR);
  const commit = execFileSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  const sb = await startConsole({ root: dir, compiled: true, databaseUrl: migratedBaseDatabase(dir), join: true });
  return { label: `console API @${commit} (baseline)`, sb };
}

/** One sample of `label` at `inFlight` from all rounds: latencies together, wall time summed. */
export function pooled(samples: Sample[], label: string, inFlight: number): Sample {
  const mine = samples.filter((s) => s.label === label && s.inFlight === inFlight);
  return { label, inFlight, latencies: mine.flatMap((s) => s.latencies), wallMs: mine.reduce((t, s) => t + s.wallMs, 0) };
}

/**
 * The comparison lines: per round and overall, this tree's console ÷ the baseline's for calls/s at
 * 16 in flight, CPU per call at 16 in flight, and p50 added over direct at 1 in flight.
 */
export function baselineLines(rounds: Sample[][], cpu: Map<string, number>, base: string, current: string, inspector?: string): string[] {
  const all = rounds.flat();
  const at = (r: number | "all", label: string, inFlight: number) =>
    row(r === "all" ? pooled(all, label, inFlight) : rounds[r]!.find((s) => s.label === label && s.inFlight === inFlight)!);
  const cpuOf = (label: string, round: number | "all") =>
    round === "all" ? avg(rounds.map((_, r) => cpu.get(`${label}@16#${r}`)!)) : cpu.get(`${label}@16#${round}`)!;
  const out = [
    `| round | direct calls/s @16 | baseline calls/s @16 | current calls/s @16 | current ÷ baseline calls/s | baseline CPU/call @16 | current CPU/call @16 | current ÷ baseline CPU | baseline p50 added @1 | current p50 added @1 |${inspector ? " Inspector calls/s @16 | Inspector CPU/call @16 |" : ""}`,
    `| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |${inspector ? " ---: | ---: |" : ""}`,
  ];
  for (const r of [...rounds.keys(), "all" as const]) {
    const [d16, b16, c16] = [at(r, "direct SDK", 16), at(r, base, 16), at(r, current, 16)];
    const [d1, b1, c1] = [at(r, "direct SDK", 1), at(r, base, 1), at(r, current, 1)];
    const [bc, cc] = [cpuOf(base, r), cpuOf(current, r)];
    const peer = inspector ? ` ${at(r, inspector, 16).rate.toFixed(0)} | ${cpuOf(inspector, r).toFixed(2)} ms |` : "";
    out.push(
      `| ${r === "all" ? "**all**" : r + 1} | ${d16.rate.toFixed(0)} | ${b16.rate.toFixed(0)} | ${c16.rate.toFixed(0)} | ${(c16.rate / b16.rate).toFixed(2)}× | ${bc.toFixed(2)} ms | ${cc.toFixed(2)} ms | ${(cc / bc).toFixed(2)}× | ${(b1.p50 - d1.p50).toFixed(2)} ms | ${(c1.p50 - d1.p50).toFixed(2)} ms |${peer}`,
    );
  }
  return out;
}

function avg(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
