import { createHmac } from "node:crypto";
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from "@opentelemetry/sdk-logs";
import { config } from "@/lib/core/config";
import { decryptJson } from "@/lib/core/crypto";
import { findAddressRefusal } from "@/lib/core/net";
import { assertUrlAllowed, outboundFetch } from "@/lib/core/net/server";
import type { WorkItem } from "@/lib/core/scheduler";
import * as q from "./queries";

/** The job that delivers each sink, claimed per sink (lib/start/jobs.ts). */
export const SINK_JOB = "audit.sinks";
/** Events per request. */
const BATCH = 200;
/** A run sends for at most this long; the next due time goes on. */
const RUN_BUDGET_MS = 20_000;
const REQUEST_TIMEOUT_MS = 15_000;
const BACKOFF_CAP_MS = 5 * 60_000;
/** The header of a webhook body's HMAC-SHA256 (hex) under the sink's secret. */
export const SIGNATURE_HEADER = "x-switchboard-signature";

/** Sinks with events to send whose backoff has passed: one work item each at the job's due time. */
export async function dueSinks(dueAt: Date): Promise<WorkItem[]> {
  const now = Date.now();
  const items: WorkItem[] = [];
  for (const sink of await q.enabledSinks()) {
    if (sink.nextAttemptAt && sink.nextAttemptAt.getTime() > now) continue;
    if (await q.oldestAfter({ workspaceId: sink.workspaceId, afterSeq: sink.deliveredSeq })) items.push({ key: sink.id, dueAt });
  }
  return items;
}

/** Outbox rows delivered to every sink go (all of a workspace's when it has no sink left). */
export async function pruneOutboxes(): Promise<string | void> {
  let pruned = 0;
  for (const workspaceId of await q.outboxWorkspaces()) pruned += await q.pruneOutbox({ workspaceId });
  if (pruned) return `${pruned} delivered outbox event(s) pruned`;
}

function backoff(attempts: number): number {
  return Math.min(config().auditSinkBackoffMs * 2 ** Math.min(attempts, 20), BACKOFF_CAP_MS);
}

type Payload = Record<string, unknown> & { id: string; seq: number; at: string; type: string };

/**
 * Sends a sink's events after its cursor, in order, batch by batch; after each 2xx moves the cursor
 * (compare-and-set). One instance at a time: a run gives way while an earlier claim of the sink is live.
 */
export async function deliverSink({ sinkId, dueAt, signal }: { sinkId: string; dueAt: Date; signal: AbortSignal }): Promise<string | void> {
  const busy = await q.earlierLiveClaim({ job: SINK_JOB, key: sinkId, dueAt });
  // Quietly: the next due time looks again (the claim ends when its instance stops renewing it).
  if (busy) return;
  const started = Date.now();
  let sent = 0;
  for (;;) {
    const sink = await q.findSink({ id: sinkId });
    if (!sink?.enabled) break;
    const rows = await q.outboxAfter({ workspaceId: sink.workspaceId, afterSeq: sink.deliveredSeq, limit: BATCH });
    if (!rows.length) break;
    const include = JSON.parse(sink.include) as string[];
    const events = rows.filter((r) => include.includes(r.type === "call" ? "calls" : "audit")).map((r) => JSON.parse(r.payload) as Payload);
    const to = rows[rows.length - 1]!.seq;
    const failure = events.length ? await send(sink, events) : null;
    if (failure) {
      await q.recordSinkFailure({ id: sink.id, error: failure, nextAttemptAt: new Date(Date.now() + backoff(sink.attempts)) });
      return `failed: ${failure}`;
    }
    if (!(await q.advanceSink({ id: sink.id, from: sink.deliveredSeq, to, sent: events.length }))) return `${sent} event(s) sent; another instance moved the cursor`;
    sent += events.length;
    if (signal.aborted || Date.now() - started > RUN_BUDGET_MS) break;
  }
  const sink = await q.findSink({ id: sinkId });
  if (sink) await q.pruneOutbox({ workspaceId: sink.workspaceId });
  if (sent) return `${sent} event(s) sent`;
}

/** Sends one batch: null on a 2xx, else why not (a refused address, a status, a network error). */
async function send(sink: q.SinkRow, events: Payload[]): Promise<string | null> {
  const secret = sink.secret ? decryptJson<string>(sink.secret) : null;
  try {
    if (sink.kind === "otlp") return await sendOtlp(sink, secret, events);
    const body = sink.kind === "splunk-hec" ? events.map((e) => JSON.stringify(hecEvent(e))).join("\n") : events.map((e) => `${JSON.stringify(e)}\n`).join("");
    const headers: Record<string, string> =
      sink.kind === "splunk-hec"
        ? { "content-type": "application/json", ...(secret ? { authorization: `Splunk ${secret}` } : {}) }
        : { "content-type": "application/x-ndjson", ...(secret ? { [SIGNATURE_HEADER]: `sha256=${createHmac("sha256", secret).update(body).digest("hex")}` } : {}) };
    const response = await outboundFetch({ workspaceId: sink.workspaceId })(sink.url, { method: "POST", headers, body, redirect: "error", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    await response.body?.cancel().catch(() => undefined);
    return response.ok ? null : `HTTP ${response.status}`;
  } catch (err) {
    const refusal = findAddressRefusal(err);
    if (refusal) return refusal.message;
    const e = err as Error & { cause?: Error };
    return e.cause?.message ?? e.message;
  }
}

/** Splunk's HTTP Event Collector: one JSON object per event, concatenated. */
function hecEvent(e: Payload) {
  return { time: Date.parse(e.at) / 1000, host: "switchboard", source: "switchboard", sourcetype: `switchboard:${e.type}`, event: e };
}

/** OTLP/HTTP logs through the OpenTelemetry exporter (JSON), one log record per event. */
async function sendOtlp(sink: q.SinkRow, secret: string | null, events: Payload[]): Promise<string | null> {
  // The exporter connects by itself: the address policy is checked first (a refused host is a failed delivery).
  await assertUrlAllowed({ url: sink.url, workspaceId: sink.workspaceId });
  const memory = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter: memory })] });
  const logger = provider.getLogger("switchboard.audit");
  for (const e of events) {
    logger.emit({ timestamp: new Date(e.at), severityText: "INFO", body: JSON.stringify(e), attributes: { "event.id": e.id, "event.name": e.type, "switchboard.workspace_id": sink.workspaceId, "switchboard.seq": e.seq } });
  }
  await provider.forceFlush();
  const exporter = new OTLPLogExporter({ url: sink.url, headers: secret ? { authorization: `Bearer ${secret}` } : {}, timeoutMillis: REQUEST_TIMEOUT_MS });
  try {
    const result = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(memory.getFinishedLogRecords(), resolve));
    return result.code === 0 ? null : (result.error?.message ?? "OTLP export failed");
  } finally {
    await exporter.shutdown().catch(() => undefined);
    await provider.shutdown().catch(() => undefined);
  }
}
