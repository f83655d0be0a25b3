import { expireOverdueApprovals } from "@/lib/domains/approvals/server";
import { deliverPending, DELIVERY_JOB, pendingDeliveries } from "@/lib/watch/alerts/server";
import { insertAuditEvents } from "@/lib/core/audit/queries";
import { purgeExpiredAudit } from "@/lib/core/audit/retention";
import { deliverSink, dueSinks, pruneOutboxes, SINK_JOB } from "@/lib/core/audit/deliver";
import { deleteOldCalls } from "@/lib/domains/calls/queries";
import { deleteOldRuns } from "@/lib/domains/collections/queries";
import { deleteOldReplays } from "@/lib/domains/replays/queries";
import { deleteOldLoadTests } from "@/lib/domains/load-tests/queries";
import { indexFinishedCalls } from "@/lib/domains/calls/search-index";
import { reapExpiredRuns } from "@/lib/domains/collections/server";
import { reapExpiredReplays } from "@/lib/domains/replays/server";
import { reapExpiredLoadTests } from "@/lib/domains/load-tests/queries";
import type { Config } from "@/lib/core/config";
import { OPTIMIZE_INTERVAL_MS, optimizeDatabase } from "@/lib/core/db/client";
import { checkServer, liveServers } from "@/lib/watch/drift/server";
import { GATEWAY_SWEEP_MS, sweepGateway } from "@/lib/gateway/server";
import type { MonitorWork } from "@/lib/watch/monitors/server";
import { purgeExpiredHistory } from "@/lib/domains/retention/purge";
import { pruneClaims, type Job } from "@/lib/core/scheduler";
import { pingLiveSessions } from "@/lib/domains/sessions/server";
import { forgetRollupsBefore } from "@/lib/domains/stats/rollup";

const HOUR_MS = 3_600_000;
const APPROVALS_EXPIRE_MS = 15_000;

async function reapRuns(): Promise<string | void> {
  const reaped = (await reapExpiredRuns()) + (await reapExpiredReplays());
  if (reaped) return `${reaped} run(s) or replay(s) whose instance stopped renewing them marked interrupted`;
}
async function reapLoadTests(): Promise<string | void> {
  const reaped = await reapExpiredLoadTests();
  if (reaped) return `${reaped} load test(s) whose instance stopped renewing them marked interrupted`;
}
const CLAIMS_KEPT_MS = 7 * 24 * HOUR_MS;

/**
 * Every piece of background work the console does, in one list: its name (the log's), its
 * discipline — `claimed` runs once per due time across instances (job_claim), `each-instance` is
 * a process's own upkeep — and the variable that sets how often. docs/architecture.md has the table.
 */
export function consoleJobs({ config, sqlite, monitors, beat }: { config: Config; sqlite: boolean; monitors: MonitorWork | null; beat: () => Promise<void> }): Job[] {
  const off = 0;
  return [
    // Once across instances.
    { name: "retention", discipline: "claimed", everyMs: config.retentionIntervalMs, variable: "SWITCHBOARD_RETENTION_INTERVAL_MS", run: () => purgeExpiredHistory({ recordAudit: insertAuditEvents, onCallsPurged: forgetRollupsBefore, deletes: { calls: deleteOldCalls, runs: deleteOldRuns, replays: deleteOldReplays, loadTests: deleteOldLoadTests }, purgeAudit: purgeExpiredAudit }) },
    { name: "drift.check", discipline: "claimed", everyMs: config.driftCheckMs, variable: "SWITCHBOARD_DRIFT_CHECK_MS", work: liveServers, run: ({ key }) => checkServer({ serverId: key }) },
    {
      name: DELIVERY_JOB,
      discipline: "claimed",
      everyMs: config.alertDeliveryMs,
      variable: "SWITCHBOARD_ALERT_DELIVERY_MS",
      work: () => pendingDeliveries({ graceMs: Math.min(config.alertDeliveryMs, 30_000) }),
      takeOver: false,
      run: ({ key }) => deliverPending({ alertId: key }),
    },
    // Each audit sink by one instance at a time (a run gives way to an earlier live claim of the same sink); its cursor is a compare-and-set.
    { name: SINK_JOB, discipline: "claimed", everyMs: config.auditSinkMs, variable: "SWITCHBOARD_AUDIT_SINK_MS", work: dueSinks, run: ({ key, dueAt, signal }) => deliverSink({ sinkId: key, dueAt, signal }) },
    { name: "audit.outbox.prune", discipline: "claimed", everyMs: HOUR_MS, variable: null, run: pruneOutboxes },
    { name: "monitors.prune", discipline: "claimed", everyMs: monitors ? HOUR_MS : off, variable: null, run: () => monitors!.prune() },
    { name: "jobs.prune", discipline: "claimed", everyMs: HOUR_MS, variable: null, run: async () => void (await pruneClaims({ before: new Date(Date.now() - CLAIMS_KEPT_MS) })) },
    // On every instance. Its heartbeat (lib/core/instances) also marks the calls, runs and connections of instances that went interrupted.
    { name: "instances.heartbeat", discipline: "each-instance", everyMs: config.heartbeatMs, variable: "SWITCHBOARD_HEARTBEAT_MS", run: beat },
    { name: "monitors.poll", discipline: "each-instance", everyMs: monitors ? config.monitorPollMs : off, variable: "SWITCHBOARD_MONITOR_POLL_MS", run: () => monitors!.poll() },
    // A compare-and-set: runs (of any origin) and replays whose instance stopped renewing their lease end `interrupted`.
    { name: "runs.reap", discipline: "each-instance", everyMs: config.heartbeatMs, variable: "SWITCHBOARD_HEARTBEAT_MS", atStart: true, run: reapRuns },
    // The same for load tests: a test whose instance stopped flushing its figures ends `interrupted`.
    { name: "load-tests.reap", discipline: "each-instance", everyMs: config.heartbeatMs, variable: "SWITCHBOARD_HEARTBEAT_MS", atStart: true, run: reapLoadTests },
    { name: "sessions.health", discipline: "each-instance", everyMs: config.healthIntervalMs, variable: "SWITCHBOARD_HEALTH_INTERVAL_MS", run: pingLiveSessions },
    { name: "gateway.sweep", discipline: "each-instance", everyMs: GATEWAY_SWEEP_MS, variable: "SWITCHBOARD_GATEWAY_IDLE_MS", run: sweepGateway },
    { name: "search.index", discipline: "each-instance", everyMs: sqlite ? config.searchIndexMs : off, variable: "SWITCHBOARD_SEARCH_INDEX_MS", run: indexFinishedCalls },
    // A compare-and-set: pending approvals past their deadline (their holding instance stopped) end `expired`.
    { name: "approvals.expire", discipline: "each-instance", everyMs: APPROVALS_EXPIRE_MS, variable: null, run: expireOverdueApprovals },
    { name: "sqlite.optimize", discipline: "each-instance", everyMs: sqlite ? OPTIMIZE_INTERVAL_MS : off, variable: null, run: optimizeDatabase },
  ];
}
