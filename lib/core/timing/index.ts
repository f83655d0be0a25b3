/**
 * The stages of one API or gateway request, answered as a `Server-Timing` header and kept on the
 * call: where the console's share of a call went (auth, route, session, validation, journal,
 * render) beside the server's (upstream). A request's Timing travels with the request object, so
 * nothing rides on AsyncLocalStorage (whose promise hooks cost every call).
 */
// `connect`: opening the connection to the server when the call found none (its handshake is the server's and the network's time).
export const STAGES = ["route", "auth", "session", "connect", "validation", "journal", "upstream", "render"] as const;
export type Stage = (typeof STAGES)[number];
export type Stages = Partial<Record<Stage, number>>;

export class Timing {
  private readonly spent: Stages = {};

  /** `startedAt`: performance.now() when the request's first byte was seen. */
  constructor(readonly startedAt = performance.now()) {}

  add(stage: Stage, ms: number): void {
    this.spent[stage] = (this.spent[stage] ?? 0) + ms;
  }

  /** Adds the time since `from` (a performance.now()) to `stage`; returns now, for the next stage. */
  since(stage: Stage, from: number): number {
    const now = performance.now();
    this.add(stage, now - from);
    return now;
  }

  async measure<T>(stage: Stage, work: () => Promise<T>): Promise<T> {
    const from = performance.now();
    try {
      return await work();
    } finally {
      this.since(stage, from);
    }
  }

  stages(): Stages {
    return { ...this.spent };
  }

  /** Milliseconds since the request arrived. */
  total(): number {
    return performance.now() - this.startedAt;
  }

  /** The header's value: each stage measured, then `total`, in milliseconds. */
  header(): string {
    let value = "";
    for (const stage of STAGES) {
      const ms = this.spent[stage];
      if (ms !== undefined) value += `${stage};dur=${ms.toFixed(2)}, `;
    }
    return `${value}total;dur=${this.total().toFixed(2)}`;
  }
}

export const SERVER_TIMING_HEADER = "server-timing";

const byRequest = new WeakMap<object, Timing>();

/** Starts the timing of a request (the pipeline does, as it reads the request line). */
export function startTiming(request: object, startedAt?: number): Timing {
  const timing = new Timing(startedAt);
  byRequest.set(request, timing);
  return timing;
}

/** The request's timing, started on first ask where no pipeline started it (Next in development). */
export function timingOf(request: object): Timing {
  return byRequest.get(request) ?? startTiming(request);
}

/** Parses a `Server-Timing` value into stage → milliseconds (unknown names kept; no `dur` skipped). */
export function parseServerTiming(value: string | null | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of (value ?? "").split(",")) {
    const [name, ...params] = part.trim().split(";");
    const dur = params.map((p) => p.trim()).find((p) => p.startsWith("dur="));
    if (!name || !dur) continue;
    const ms = Number(dur.slice(4));
    if (Number.isFinite(ms)) out[name.trim()] = (out[name.trim()] ?? 0) + ms;
  }
  return out;
}
