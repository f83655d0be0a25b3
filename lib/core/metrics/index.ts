import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { piece } from "@/lib/core/runtime";
import { LabelCap } from "./labels";

// Loaded by lib/start's graph and the call journal: nothing here may import "server-only".

/** A call's labels, taken from its pending row (its name as recorded: masked like history). */
export interface CallLabels {
  serverId: string;
  method: string;
  tool: string;
  origin: string;
}

type CallLabel = "server_id" | "method" | "tool" | "origin" | "status";
type LatencyLabel = "server_id" | "origin";

/** Seconds: MCP calls range from a local tool's milliseconds to a long task's minutes. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Calls followed from pending to completion; past it a call completes under "unknown" labels. */
const MAX_IN_FLIGHT = 100_000;
const UNKNOWN: CallLabels = { serverId: "unknown", method: "unknown", tool: "unknown", origin: "unknown" };

interface Metrics {
  registry: Registry;
  calls: Counter<CallLabel>;
  callCap: LabelCap<CallLabel>;
  latency: Histogram<LatencyLabel>;
  latencyCap: LabelCap<LatencyLabel>;
  orphans: Counter;
  monitorRuns: Counter<"status">;
  loadTestCalls: Counter<"status">;
  /** Calls whose rows are pending, by call id, with their labels (task calls flagged: a stop does not interrupt them). */
  inFlight: Map<string, CallLabels & { task?: boolean }>;
  /** Journal writes handed to the database and not yet settled. */
  journalWrites: number;
  gauges: Map<string, Gauge<string>>;
}

/** One registry per process (lib/core/runtime), whichever module graph asks first. */
function metrics(): Metrics {
  return piece("metrics", (): Metrics => {
    const registry = new Registry();
    // Node's standard figures under their usual names (process_*, nodejs_*), read at each scrape.
    collectDefaultMetrics({ register: registry });
    const m: Metrics = {
      registry,
      calls: new Counter({
        name: "switchboard_calls_total",
        help: "Calls recorded by this instance when they completed (or were refused, denied or interrupted), by server id, method, name, origin and status",
        labelNames: ["server_id", "method", "tool", "origin", "status"],
        registers: [registry],
      }),
      callCap: new LabelCap<CallLabel>(["tool", "server_id"]),
      latency: new Histogram({
        name: "switchboard_call_duration_seconds",
        help: "Duration of completed calls in seconds (the server's share and the network's), by server id and origin",
        labelNames: ["server_id", "origin"],
        buckets: LATENCY_BUCKETS,
        registers: [registry],
      }),
      latencyCap: new LabelCap<LatencyLabel>(["server_id"]),
      orphans: new Counter({
        name: "switchboard_calls_orphaned_total",
        help: "Pending calls of a console instance that stopped, marked interrupted by this instance",
        registers: [registry],
      }),
      monitorRuns: new Counter({ name: "switchboard_monitor_runs_total", help: "Monitor runs this instance started that finished, by run status", labelNames: ["status"], registers: [registry] }),
      loadTestCalls: new Counter({
        name: "switchboard_load_test_calls_total",
        help: "Calls load tests on this instance made (counted, not recorded: only a sample of them are call rows), by status (ok or error)",
        labelNames: ["status"],
        registers: [registry],
      }),
      inFlight: new Map(),
      journalWrites: 0,
      gauges: new Map(),
    };
    new Gauge({ name: "switchboard_calls_in_flight", help: "Calls this instance sent whose answer is not recorded yet", registers: [registry], collect() { this.set(m.inFlight.size); } });
    new Gauge({ name: "switchboard_journal_backlog", help: "Call-row writes of this instance waiting for the database", registers: [registry], collect() { this.set(m.journalWrites); } });
    return m;
  });
}

function count(labels: CallLabels, status: string, durationMs: number | null): void {
  const m = metrics();
  m.calls.inc(m.callCap.admit({ server_id: labels.serverId, method: labels.method, tool: labels.tool, origin: labels.origin, status }));
  if (durationMs !== null) m.latency.observe(m.latencyCap.admit({ server_id: labels.serverId, origin: labels.origin }), durationMs / 1000);
}

/** The journal wrote a call's pending row: its labels are kept until it completes. */
export function callPending(id: string, labels: CallLabels): void {
  const { inFlight } = metrics();
  if (inFlight.size < MAX_IN_FLIGHT) inFlight.set(id, labels);
}

/** The call runs as a task on its server: a graceful stop leaves it pending (the poller resumes it). */
export function callIsTask(id: string): void {
  const labels = metrics().inFlight.get(id);
  if (labels) labels.task = true;
}

/** The journal completed a call's row: counted once, with its duration. */
export function callCompleted(id: string, status: string, durationMs: number | null): void {
  const { inFlight } = metrics();
  const labels = inFlight.get(id) ?? UNKNOWN;
  inFlight.delete(id);
  count(labels, status, durationMs);
}

/** A call recorded finished in one write (refused, denied, never sent). */
export function callRecorded(labels: CallLabels, status: string, durationMs: number | null): void {
  count(labels, status, durationMs);
}

/** This instance marked its own pending calls interrupted (a graceful stop). */
export function ownCallsInterrupted(): void {
  for (const [id, labels] of metrics().inFlight) if (!labels.task) callCompleted(id, "interrupted", null);
}

/** This instance marked `n` pending calls of stopped instances interrupted. */
export function orphanCallsInterrupted(n: number): void {
  if (n > 0) metrics().orphans.inc(n);
}

/** A monitor run finished (lib/watch/monitors). */
export function monitorRunFinished(status: string): void {
  metrics().monitorRuns.inc({ status });
}

/** A load test's call ended (lib/domains/load-tests): counted whether or not it was sampled into history. */
export function loadTestCallCounted(ok: boolean): void {
  metrics().loadTestCalls.inc({ status: ok ? "ok" : "error" });
}

/** Counts a journal write from when it is handed over until it settles. */
export function journalWrite<T>(write: Promise<T>): Promise<T> {
  const m = metrics();
  m.journalWrites++;
  return write.finally(() => m.journalWrites--);
}

/** One sample of a state gauge: its labels and value. */
export interface Sample {
  labels?: Record<string, string>;
  value: number;
}

/**
 * A gauge read at scrape time (state kept elsewhere: connected agents, open incidents): `collect`
 * answers its samples. Defined once per process by name (a second definition is ignored).
 */
export function defineGauge({ name, help, labelNames = [], collect }: { name: string; help: string; labelNames?: string[]; collect: () => Sample[] | Promise<Sample[]> }): void {
  const m = metrics();
  if (m.gauges.has(name)) return;
  const gauge = new Gauge({
    name,
    help,
    labelNames,
    registers: [m.registry],
    async collect() {
      this.reset();
      // A figure that cannot be read now (the database away) is left out of this scrape, not the rest.
      const samples = await Promise.resolve()
        .then(collect)
        .catch((err: unknown) => (console.error(`[metrics] ${name}: ${err instanceof Error ? err.message : String(err)}`), []));
      for (const s of samples) (s.labels ? this.set(s.labels, s.value) : this.set(s.value));
    },
  });
  m.gauges.set(name, gauge);
}

/** The exposition of every metric (Prometheus text format), with its content type. */
export async function exposition(): Promise<{ contentType: string; text: string }> {
  const { registry } = metrics();
  return { contentType: registry.contentType, text: await registry.metrics() };
}
