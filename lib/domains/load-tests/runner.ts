import "server-only";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { Principal } from "@/lib/core/access";
import { retryOnOutage } from "@/lib/core/db/client";
import { publish } from "@/lib/core/events/server";
import { heartbeatMs } from "@/lib/core/instances";
import { piece } from "@/lib/core/runtime";
import type { McpConnection } from "@/lib/mcp/server";
import { serverFailure } from "@/lib/domains/sessions/server";
import { MAX_DURATION_SECONDS, type LoadTestConfig, type LoadTestStatus } from "./index";
import { listKind, type Plan, type PlannedStep } from "./plan";
import { openUserConnection } from "./connection";
import { Sampler } from "./sample";
import { Figures } from "./figures";
import * as q from "./queries";

const FLUSH_MS = 1000;
/** A user whose connection failed waits at least this long before opening another. */
const RECONNECT_MS = 100;
/** Failures after which a user's connection is opened anew for its next call. */
const DROPS = new Set(["closed", "offline", "refused", "dns", "tls", "http", "unknown"]);

/** How long a running test holds without a flush from its instance: six heartbeats (as collection runs). */
export function loadTestLeaseMs(): number {
  return 6 * heartbeatMs();
}

/** The tests running on this instance, so that a cancel stops their calls in flight at once. */
const running = () => piece("loadTests", () => new Map<string, AbortController>());

/** Stops a test running here now (its row says `cancelled` already); false when it runs elsewhere or not at all. */
export function abortHere(id: string): boolean {
  const controller = running().get(id);
  controller?.abort();
  return controller !== undefined;
}

interface Run {
  id: string;
  principal: Principal;
  plan: Plan;
  config: LoadTestConfig;
}

/** Runs a test to its end in this process (the row exists and is `running`); resolves once its end is written. */
export async function runLoadTest({ id, principal, plan, config }: Run): Promise<void> {
  const cancelled = new AbortController();
  running().set(id, cancelled);
  const stopping = new AbortController();
  cancelled.signal.addEventListener("abort", () => stopping.abort());
  const figures = new Figures(plan.steps);
  const sampler = new Sampler(principal, plan.steps);
  const startedAt = performance.now();
  const elapsed = () => performance.now() - startedAt;
  const limitMs = (config.durationSeconds ?? MAX_DURATION_SECONDS) * 1000;
  let claimed = 0;
  let users = 0;
  // The next call's slot: false once the test is over (its time is up, its count made, or it was stopped).
  const claim = () => {
    if (stopping.signal.aborted) return false;
    if (config.count !== undefined && claimed >= config.count) return false;
    claimed++;
    return true;
  };
  const user = async (n: number) => {
    const delay = config.users > 1 ? (config.rampUpSeconds * 1000 * n) / config.users : 0;
    if (delay && !(await pause(delay, stopping.signal))) return;
    users++;
    const connections = new Map<string, Promise<McpConnection>>();
    try {
      for (let made = 0; ; ) {
        for (const step of plan.steps) {
          if (made++ > 0 && config.thinkMs && !(await pause(config.thinkMs, stopping.signal))) return;
          if (!claim()) return;
          await callOnce(step, connections, { figures, sampler, elapsed, signal: cancelled.signal });
        }
      }
    } finally {
      users--;
      for (const c of connections.values()) void c.then((conn) => conn.close()).catch(() => undefined);
    }
  };
  // The console's own delay while the test runs (every call's time includes it): a resolution of 10 ms is cheap and enough.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const lag = () => (loop.count ? { p50: loop.percentile(50) / 1e6, p95: loop.percentile(95) / 1e6, p99: loop.percentile(99) / 1e6 } : null);
  const flush = (final = false) => figures.snapshot({ elapsedMs: elapsed(), users, sampleCallIds: sampler.ids, lag: lag(), final });
  let status: LoadTestStatus = "completed";
  let note: string | null = null;
  const all = Promise.all(Array.from({ length: config.users }, (_, n) => user(n)));
  const ended = all.then(() => true);
  try {
    while (!(await Promise.race([ended, sleep(Math.max(1, Math.min(FLUSH_MS, limitMs - elapsed())), false)]))) {
      if (elapsed() >= limitMs && !stopping.signal.aborted) {
        stopping.abort();
        if (config.count !== undefined) note = `Stopped at the ${MAX_DURATION_SECONDS / 60}-minute limit before making ${config.count} calls`;
      }
      const kept = await q.writeProgress({ id, figures: flush(), leaseMs: loadTestLeaseMs() }).catch(() => -1);
      if (kept === 0) {
        // Cancelled (or reaped): stop now, calls in flight included.
        cancelled.abort();
        status = "cancelled";
      }
      if (kept !== -1) publish(principal.workspaceId, { type: "load_test", loadTestId: id, status: kept === 0 ? "cancelled" : "running" });
    }
  } catch (err) {
    status = "failed";
    note = err instanceof Error ? err.message : String(err);
    cancelled.abort();
    await all.catch(() => undefined);
  } finally {
    running().delete(id);
    await sampler.settled();
    loop.disable();
  }
  if (cancelled.signal.aborted && status === "completed") status = "cancelled";
  const written = await retryOnOutage({ attempt: () => q.writeEnd({ id, figures: flush(true), status, error: note }), deadlineMs: loadTestLeaseMs() }).catch((err: unknown) => {
    console.error(`[load-tests] ${id}: its end could not be written (its lease will run out)`, err);
    return 0;
  });
  if (written) publish(principal.workspaceId, { type: "load_test", loadTestId: id, status });
}

/** Waits `ms`; false when the test stopped meanwhile. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  return sleep(ms, true, { signal }).catch(() => false);
}

interface Counting {
  figures: Figures;
  sampler: Sampler;
  elapsed: () => number;
  signal: AbortSignal;
}

/** One call of one step on the user's own connection to its server, timed and counted (and maybe sampled). */
async function callOnce(step: PlannedStep, connections: Map<string, Promise<McpConnection>>, { figures, sampler, elapsed, signal }: Counting): Promise<void> {
  if (step.decision && step.decision.effect !== "allow") {
    figures.count(step.index, elapsed(), null, "policy");
    sampler.refused(step);
    return;
  }
  let connection = connections.get(step.server.id);
  if (!connection) {
    connection = openUserConnection(step.server);
    connection.catch(() => undefined);
    connections.set(step.server.id, connection);
  }
  const sample = await sampler.before(step);
  let conn: McpConnection;
  try {
    conn = await connection;
  } catch (err) {
    connections.delete(step.server.id);
    if (signal.aborted) return;
    const kind = serverFailure(step.server, err).kind;
    figures.count(step.index, elapsed(), null, kind);
    await sampler.after(step, sample, { status: "error", kind, err });
    await pause(RECONNECT_MS, signal);
    return;
  }
  const list = listKind(step.method);
  const t0 = performance.now();
  try {
    const result = list ? { items: await conn.list(list, { signal }) } : await conn.request(step.method as "tools/call", step.params, { signal, timeoutMs: step.server.timeoutMs });
    const duration = performance.now() - t0;
    const isError = (result as { isError?: unknown }).isError === true;
    figures.count(step.index, elapsed(), duration, isError ? "tool_error" : null);
    await sampler.after(step, sample, { status: isError ? "error" : "ok", result: result as Record<string, unknown> });
  } catch (err) {
    const duration = performance.now() - t0;
    if (signal.aborted) return;
    const kind = serverFailure(step.server, err).kind;
    if (DROPS.has(kind)) {
      connections.delete(step.server.id);
      void conn.close().catch(() => undefined);
    }
    figures.count(step.index, elapsed(), duration, kind);
    await sampler.after(step, sample, { status: "error", kind, err });
  }
}
