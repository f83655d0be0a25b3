import type { Stages, Timing } from "@/lib/core/timing";
import type { CallTiming } from "./index";

/** What is known of the network under a call's upstream stage. */
export interface UpstreamSplit {
  /** The server's own Server-Timing total for this request (an HTTP server that sends one). */
  serverTimingMs?: number | null;
  /** The session's last ping round trip: the network and a trivial answer. */
  pingMs?: number | null;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/**
 * A call's timing as recorded with its answer (the `timing` column, JSON): the stages so far and
 * upstream split into the network and the server. The server's own account wins; else the last
 * ping round trip stands for the network, capped at upstream (a ping slower than the call says
 * the network was at most the whole of it).
 */
export function recordedTiming(timing: Timing, split: UpstreamSplit = {}): string {
  const spent = timing.stages();
  const stages: Stages = {};
  for (const [stage, ms] of Object.entries(spent) as [keyof Stages, number][]) stages[stage] = round(ms);
  const upstream = spent.upstream;
  let networkMs: number | null = null;
  let networkSource: CallTiming["networkSource"] = null;
  if (upstream !== undefined && split.serverTimingMs != null) {
    networkMs = Math.max(0, upstream - split.serverTimingMs);
    networkSource = "server-timing";
  } else if (upstream !== undefined && split.pingMs != null) {
    networkMs = Math.min(split.pingMs, upstream);
    networkSource = "ping";
  }
  const recorded: CallTiming = {
    stages,
    totalMs: round(timing.total()),
    networkMs: networkMs === null ? null : round(networkMs),
    serverMs: networkMs === null || upstream === undefined ? null : round(upstream - networkMs),
    networkSource,
  };
  return JSON.stringify(recorded);
}
