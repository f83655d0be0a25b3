import { measure, row, type Sample } from "./report";
import { cpuMs, type StageLog } from "./stages";

/** One path a call can take; `pid`: the process whose CPU per call is reported. */
export interface CallPath {
  label: string;
  call: () => Promise<void>;
  pid?: number;
}

export interface Interleaved {
  /** One pooled sample per path and in-flight count, in the order of `inFlights` then `paths`. */
  samples: Sample[];
  /** CPU ms per call of `pid`, by `label@inFlight`. */
  cpu: Map<string, number>;
  at(label: string, inFlight: number): { p50: number; p95: number; rate: number };
}

/**
 * Warm-up (`warmup` calls at 16 in flight on each path), then `rounds` rounds; each round runs every
 * path at every in-flight count for total/rounds calls, the order of the paths reversed every other
 * round, so that every path shares the machine's state. Replies' Server-Timing go to `stages` under
 * "label @inFlight".
 */
export async function interleave(paths: CallPath[], opts: { rounds: number; total: number; warmup: number; inFlights?: number[]; stages?: StageLog }): Promise<Interleaved> {
  const inFlights = opts.inFlights ?? [1, 16];
  const perRound = Math.max(1, Math.round(opts.total / opts.rounds));
  opts.stages?.at("");
  for (const p of paths) await measure("warm-up", 16, opts.warmup, p.call);
  const parts: Sample[] = [];
  const cpu = new Map<string, number>();
  for (let r = 0; r < opts.rounds; r++) {
    for (const inFlight of inFlights) {
      for (const p of r % 2 ? [...paths].reverse() : paths) {
        opts.stages?.at(`${p.label} @${inFlight}`);
        const before = p.pid ? cpuMs(p.pid) : 0;
        parts.push(await measure(p.label, inFlight, perRound, p.call));
        if (p.pid) cpu.set(`${p.label}@${inFlight}`, (cpu.get(`${p.label}@${inFlight}`) ?? 0) + cpuMs(p.pid) - before);
      }
    }
  }
  opts.stages?.at("");
  for (const [key, ms] of cpu) cpu.set(key, ms / (perRound * opts.rounds));
  const samples = inFlights.flatMap((inFlight) =>
    paths.map((p) => {
      const mine = parts.filter((s) => s.label === p.label && s.inFlight === inFlight);
      return { label: p.label, inFlight, latencies: mine.flatMap((s) => s.latencies), wallMs: mine.reduce((t, s) => t + s.wallMs, 0) };
    }),
  );
  return { samples, cpu, at: (label, inFlight) => row(samples.find((s) => s.label === label && s.inFlight === inFlight)!) };
}

/** "+1.23 ms at p50, 0.71× of <reference>'s calls/s, 0.84 ms CPU per call" for `label` at `inFlight`. */
export function against(run: Interleaved, label: string, reference: string, inFlight: number): string {
  const [p, d] = [run.at(label, inFlight), run.at(reference, inFlight)];
  const cpu = run.cpu.get(`${label}@${inFlight}`);
  return `${p.p50 - d.p50 >= 0 ? "+" : ""}${(p.p50 - d.p50).toFixed(2)} ms at p50, ${(p.rate / d.rate).toFixed(2)}× of its calls/s${cpu === undefined ? "" : `, ${cpu.toFixed(2)} ms of its CPU per call`}`;
}
