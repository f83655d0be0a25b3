import type { PriorDiscovery, Transport } from "@modelcontextprotocol/client";
import { McpError } from "./errors";
import { explainError } from "./explain";
import type { HttpRecorder } from "./http";
import { LogLevelStamp } from "./logging";
import { ProgressRouter } from "./progress-router";
import { RecordingTransport } from "./recording-transport";
import { Session, type SessionHooks } from "./session";
import type { SessionTransportKind } from "./transports";
import { fallsBackToSse, openUpstream } from "./upstream";
import type { ConnectionConfig, TransportMode } from "./types";

const LEGACY: PriorDiscovery = { kind: "legacy" };

interface OpenOptions {
  /** Overrides config.transport (a re-initialise keeps the transport that worked). */
  mode?: TransportMode;
  /** Overrides the era verdict derived from the config. */
  prior?: PriorDiscovery;
}

/**
 * Opens one session: builds the transport(s), runs the SDK connect (probe and/or initialize) and,
 * in auto mode, falls back from Streamable HTTP to HTTP+SSE on 400/404/405. The whole attempt,
 * fallback included, is bounded by config.timeoutMs. Throws an explained McpError.
 */
export async function openSession(config: ConnectionConfig, hooks: SessionHooks, options: OpenOptions = {}): Promise<Session> {
  const deadline = Date.now() + config.timeoutMs;
  const prior = options.prior ?? priorFor(config);
  if (config.createTransport) {
    return attempt(config.transportKind ?? "relay", config.createTransport, null, config, hooks, prior, deadline);
  }
  const open = (kind: "streamable-http" | "sse") => {
    const { transport, recorder } = openUpstream(config, kind);
    // HTTP+SSE exists only in the legacy era: no probe.
    return attempt(kind, () => transport, recorder, config, hooks, kind === "sse" ? LEGACY : prior, deadline);
  };
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

function priorFor(config: ConnectionConfig): PriorDiscovery | undefined {
  if (config.eraHint === "legacy") return LEGACY;
  if (config.eraHint === "modern" && config.discoverResult) {
    return { kind: "modern", discover: config.discoverResult } as PriorDiscovery;
  }
  return undefined;
}

async function attempt(
  kind: SessionTransportKind,
  makeTransport: () => Transport,
  recorder: HttpRecorder | null,
  config: ConnectionConfig,
  hooks: SessionHooks,
  prior: PriorDiscovery | undefined,
  deadline: number,
): Promise<Session> {
  const context = () => ({ url: config.url, timeoutMs: config.timeoutMs, http: recorder?.lastFailure, internal: config.fetch?.isInternal?.(config.url) ?? false });
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw connectTimeout(config.timeoutMs);
  const session = new Session(kind, makeTransport(), recorder, hooks);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(connectTimeout(config.timeoutMs)), remaining);
  });
  session.progressRouter = new ProgressRouter(decorate(session.transport, config, hooks));
  const connecting = session.client.connect(session.progressRouter, { timeout: config.timeoutMs, ...(prior ? { prior } : {}) });
  connecting.catch(() => {});
  try {
    await Promise.race([connecting, timedOut]);
  } catch (err) {
    await session.end({ leave: false });
    throw explainError(err, context());
  } finally {
    clearTimeout(timer);
  }
  session.captureInfo();
  if (prior?.kind === "modern") await session.listenIfNeeded(Math.max(1, deadline - Date.now()));
  return session;
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
 * traffic (header values are scrubbed from bodies), with the modern-era log level stamped on top.
 * `session.transport` stays the bare transport (its class decides HTTP DELETE and 404 handling).
 */
function decorate(transport: Transport, config: ConnectionConfig, hooks: SessionHooks): Transport {
  const onTraffic = config.onTraffic;
  const recorded = onTraffic ? new RecordingTransport(transport, { sink: onTraffic, secrets: Object.values(config.headers), moreSecrets: config.trafficSecrets }) : transport;
  return hooks.logLevel ? new LogLevelStamp(recorded, hooks.logLevel) : recorded;
}
