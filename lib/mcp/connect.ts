import type { PriorDiscovery, Transport } from "@modelcontextprotocol/client";
import { McpError } from "./errors";
import { explainError, failureContext } from "./explain";
import type { HttpRecorder } from "./http";
import { LogLevelStamp } from "./logging";
import { bothFailed, fallbackPlan, modernPlan, planAttempt, probeFailure, slowStart, slowStartFailed, withProbeContext, type AttemptPlan } from "./negotiation";
import { ProbeWatch } from "./probe-watch";
import { ProgressRouter } from "./progress-router";
import { RecordingTransport } from "./recording-transport";
import { Session, type SessionHooks } from "./session";
import { TracedTransport, tracedPeer } from "./traced-transport";
import type { SessionTransportKind } from "./transports";
import { fallsBackToSse, openUpstream } from "./upstream";
import type { ConnectionConfig, TransportMode } from "./types";

// HTTP+SSE exists only in the legacy era: no probe.
const SSE_PLAN: AttemptPlan = { negotiation: { mode: "legacy" }, prior: { kind: "legacy" }, label: "initialize", mayFallBack: false };

interface OpenOptions {
  /** Overrides config.transport (a re-initialise keeps the transport that worked). */
  mode?: TransportMode;
  /** Overrides the remembered era (protocolEra "auto" only). */
  prior?: PriorDiscovery;
}

type MakeTransport = () => { transport: Transport; recorder: HttpRecorder | null };

/**
 * Opens one session: builds the transport(s), runs the SDK connect (probe and/or initialize per the
 * server's protocolEra; a failed probe is retried with initialize on a fresh transport) and, in
 * auto transport mode, falls back from Streamable HTTP to HTTP+SSE on 400/404/405. The whole
 * attempt, fallbacks included, is bounded by config.timeoutMs. Throws an explained McpError.
 */
export async function openSession(config: ConnectionConfig, hooks: SessionHooks, options: OpenOptions = {}): Promise<Session> {
  const deadline = Date.now() + config.timeoutMs;
  const plan = planAttempt(config, options.prior);
  const createTransport = config.createTransport;
  if (createTransport) {
    return negotiate(config.transportKind ?? "relay", () => ({ transport: createTransport(), recorder: null }), config, hooks, plan, deadline);
  }
  const open = (kind: "streamable-http" | "sse") => negotiate(kind, () => openUpstream(config, kind), config, hooks, kind === "sse" ? SSE_PLAN : plan, deadline);
  const mode = options.mode ?? config.transport;
  if (mode !== "auto") return open(mode);
  try {
    return await open("streamable-http");
  } catch (err) {
    if (!(err instanceof McpError) || !fallsBackToSse(mode, err)) throw err;
    try {
      return await open("sse");
    } catch (sseErr) {
      throw fallbackFailed(err, explainError(sseErr));
    }
  }
}

/** The planned attempt and, when its probe failed in a way initialize may survive, initialize on a fresh transport. */
async function negotiate(kind: SessionTransportKind, make: MakeTransport, config: ConnectionConfig, hooks: SessionHooks, plan: AttemptPlan, deadline: number): Promise<Session> {
  const first = await attempt(kind, make, config, hooks, plan, deadline, null);
  if ("session" in first) return first.session;
  if (first.slow) {
    // The process read the probe once up and chose the modern era: a fresh one, asked in that era.
    const retry = await attempt(kind, make, config, hooks, modernPlan(), deadline, `${first.slow}; connected on a fresh process`);
    if ("session" in retry) return retry.session;
    throw slowStartFailed(first.slow, retry.error);
  }
  if (!first.probe) throw first.error;
  const second = await attempt(kind, make, config, hooks, fallbackPlan(), deadline, `${first.probe}; connected with initialize`);
  if ("session" in second) return second.session;
  throw bothFailed(first.probe, first.error, second.error);
}

type Outcome = { session: Session } | { error: McpError; probe: string | null; slow?: string | null };

async function attempt(
  kind: SessionTransportKind,
  make: MakeTransport,
  config: ConnectionConfig,
  hooks: SessionHooks,
  plan: AttemptPlan,
  deadline: number,
  note: string | null,
): Promise<Outcome> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return { error: connectTimeout(config.timeoutMs), probe: null };
  const { transport, recorder } = make();
  const context = () => ({ url: config.url, timeoutMs: config.timeoutMs, http: recorder?.lastFailure, ...failureContext(config) });
  const session = new Session(kind, transport, recorder, hooks, plan.negotiation);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(connectTimeout(config.timeoutMs)), remaining);
  });
  const watch = plan.mayFallBack && kind === "relay" ? new ProbeWatch(session.transport) : null;
  session.progressRouter = new ProgressRouter(decorate(watch ?? session.transport, config, hooks, kind));
  const { prior } = plan;
  const connecting = session.client.connect(session.progressRouter, { timeout: config.timeoutMs, ...(prior ? { prior } : {}) });
  connecting.catch(() => {});
  try {
    await Promise.race([connecting, timedOut]);
  } catch (err) {
    await session.end({ leave: false });
    const error = explainError(err, context());
    const probe = plan.label === "probe" ? probeFailure(err) : null;
    if (probe && !plan.mayFallBack) return { error: withProbeContext(error), probe: null };
    return { error, probe, slow: watch ? slowStart(error, watch.unansweredMs) : null };
  } finally {
    clearTimeout(timer);
  }
  const era = session.client.getProtocolEra();
  session.captureInfo(plan.label === "probe" && era !== "modern" ? "initialize" : plan.label, note);
  if (prior?.kind === "modern") await session.listenIfNeeded(Math.max(1, deadline - Date.now()));
  return { session };
}

function connectTimeout(timeoutMs: number): McpError {
  return new McpError("timeout", `Connecting timed out after ${timeoutMs} ms`);
}

/** Both transports failed: report the Streamable HTTP failure unless the SSE one is about credentials. */
function fallbackFailed(primary: McpError, secondary: McpError): McpError {
  const [main, other, otherName] =
    secondary.kind === "unauthorized"
      ? [secondary, primary, "Streamable HTTP"]
      : [primary, secondary, "the legacy HTTP+SSE fallback"];
  const also = other.message === main.message ? ` (${otherName} got the same answer)` : `; ${otherName} also failed: ${other.message}`;
  return new McpError(main.kind, `${main.message}${also}`, {
    code: main.code,
    data: main.data,
    status: main.status,
    bodyExcerpt: main.bodyExcerpt,
    wwwAuthenticate: main.wwwAuthenticate,
    cause: main,
  });
}

/**
 * What the SDK client talks through: the session's transport, recorded when someone listens to
 * traffic (header values are scrubbed from bodies), traced around that (so the recording shows the
 * trace context sent), with the modern-era log level stamped on top. `session.transport` stays
 * the bare transport (its class decides HTTP DELETE and 404 handling).
 */
function decorate(transport: Transport, config: ConnectionConfig, hooks: SessionHooks, kind: SessionTransportKind): Transport {
  const onTraffic = config.onTraffic;
  const recorded = onTraffic ? new RecordingTransport(transport, { sink: onTraffic, secrets: Object.values(config.headers), moreSecrets: config.trafficSecrets }) : transport;
  const traced = new TracedTransport(recorded, tracedPeer(kind, config.url));
  return hooks.logLevel ? new LogLevelStamp(traced, hooks.logLevel) : traced;
}
