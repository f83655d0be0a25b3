import { STATUS_CODES } from "node:http";
import { SdkError, SdkErrorCode, SdkHttpError, type PriorDiscovery, type VersionNegotiationOptions } from "@modelcontextprotocol/client";
import { McpError } from "./errors";
import type { ConnectionConfig, Negotiation, ProtocolEra } from "./types";

/** The first modern revision, and the only one this SDK speaks: protocolEra "modern" pins it. */
const MODERN_REVISION = "2026-07-28";
const PROBE_BUDGET_CAP_MS = 5000;
const LEGACY: PriorDiscovery = { kind: "legacy" };

/** How one attempt connects: the client's negotiation mode, a cached verdict, and what to call the path taken. */
export interface AttemptPlan {
  negotiation: VersionNegotiationOptions;
  prior?: PriorDiscovery;
  /** The path when it connects (an auto probe that finds a legacy server is "initialize"). */
  label: Negotiation;
  /** A failed probe may be retried with `initialize` (auto only). */
  mayFallBack: boolean;
}

/**
 * The first attempt for a server's protocolEra. Under auto, the remembered era (eraHint) skips the
 * probe; the probe gets a share of the budget so that a server that never answers it leaves time
 * for initialize. Legacy runs initialize only; modern probes with the whole budget and no fallback.
 */
export function planAttempt(config: Pick<ConnectionConfig, "protocolEra" | "eraHint" | "discoverResult" | "timeoutMs" | "createTransport" | "transportKind">, prior?: PriorDiscovery): AttemptPlan {
  const era: ProtocolEra = config.protocolEra ?? "auto";
  if (era === "legacy") return { negotiation: { mode: "legacy" }, prior: LEGACY, label: "initialize", mayFallBack: false };
  if (era === "modern") return { negotiation: { mode: { pin: MODERN_REVISION } }, label: "probe", mayFallBack: false };
  const remembered = prior ?? rememberedPrior(config);
  const stdio = config.createTransport !== undefined && config.transportKind !== "memory";
  const auto: VersionNegotiationOptions = { mode: "auto", probe: { timeoutMs: probeBudgetMs(config.timeoutMs, stdio) } };
  if (remembered) return { negotiation: auto, prior: remembered, label: "remembered", mayFallBack: false };
  return { negotiation: auto, label: "probe", mayFallBack: true };
}

/** The plan after a failed probe: initialize on a fresh transport. */
export function fallbackPlan(): AttemptPlan {
  return { negotiation: { mode: "legacy" }, prior: LEGACY, label: "fallback", mayFallBack: false };
}

/** The plan after a stdio probe that went unanswered while the process was starting: the modern era on a fresh process. */
export function modernPlan(): AttemptPlan {
  return { negotiation: { mode: { pin: MODERN_REVISION } }, label: "fallback", mayFallBack: false };
}

/**
 * A server that is up answers `server/discover` in milliseconds; one that drops unknown methods on
 * the floor would otherwise eat the whole connect timeout. A third of the budget, at most 5 s,
 * leaves at least two thirds for initialize (and the HTTP+SSE fallback after it).
 *
 * A stdio process is different: it reads nothing until it has started (`npx -y`/`uvx` on a cold
 * cache, a Python server importing its world), and a stdio probe that times out is not a failure
 * but the SDK's signal to send initialize down the same pipe. So it gets two thirds of the budget.
 */
export function probeBudgetMs(timeoutMs: number, stdio = false): number {
  if (stdio) return Math.max(1, Math.floor((timeoutMs * 2) / 3));
  return Math.max(1, Math.min(PROBE_BUDGET_CAP_MS, Math.floor(timeoutMs / 3)));
}

/**
 * A stdio probe that got no answer (the SDK then sent initialize in place) and an initialize
 * answered "unsupported protocol version" by a server that names the modern revision: the process
 * was still starting when the probe gave up, read the probe first once up, and chose the modern era.
 * Null when the failure means something else.
 */
export function slowStart(err: McpError, unansweredMs: number | null): string | null {
  if (unansweredMs === null || err.kind !== "protocol_version") return null;
  const supported = (err.data as { supported?: unknown } | undefined)?.supported;
  if (!Array.isArray(supported) || !supported.includes(MODERN_REVISION)) return null;
  return `server/discover got no answer within ${seconds(unansweredMs)} (the server was probably still starting)`;
}

/** The retry on a fresh process failed as well: an error about the time waited, not the protocol. */
export function slowStartFailed(reason: string, retry: McpError): McpError {
  return new McpError("timeout", `${reason}; a fresh process then failed: ${retry.message}`, copyDetails(retry));
}

export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function rememberedPrior(config: Pick<ConnectionConfig, "eraHint" | "discoverResult">): PriorDiscovery | undefined {
  if (config.eraHint === "legacy") return LEGACY;
  if (config.eraHint === "modern" && config.discoverResult) {
    return { kind: "modern", discover: config.discoverResult } as PriorDiscovery;
  }
  return undefined;
}

/**
 * Why the `server/discover` probe failed in a way `initialize` may survive, or null when the failure
 * is not the probe's: an HTTP error status (401/403 stay credential errors, and the SDK itself
 * already falls back on other 4xx), an answer that is not JSON-RPC, or no answer within the budget.
 * A network outage is not retried: initialize would meet the same closed door.
 */
export function probeFailure(err: unknown): string | null {
  if (SdkHttpError.isInstance(err) && err.code === SdkErrorCode.EraNegotiationFailed) {
    const text = err.statusText || STATUS_CODES[err.status];
    return `server/discover answered HTTP ${err.status}${text ? ` ${text}` : ""}`;
  }
  if (!SdkError.isInstance(err)) return null;
  if (err.code === SdkErrorCode.RequestTimeout && /^Version negotiation probe timed out/.test(err.message)) {
    const ms = (err.data as { timeout?: unknown } | undefined)?.timeout;
    return `server/discover went unanswered for ${typeof ms === "number" ? ms : "?"} ms`;
  }
  if (err.code === SdkErrorCode.EraNegotiationFailed && unusable(err.cause)) {
    return `server/discover answered with something other than JSON-RPC (${describe(err.cause)})`;
  }
  return null;
}

function unusable(cause: unknown): boolean {
  if (cause instanceof McpError) return cause.kind === "protocol" || cause.kind === "content_type";
  if (SdkError.isInstance(cause)) return cause.code === SdkErrorCode.ClientHttpUnexpectedContent;
  if (!(cause instanceof Error)) return false;
  return cause instanceof SyntaxError || Array.isArray((cause as { issues?: unknown }).issues);
}

function describe(cause: unknown): string {
  if (SdkError.isInstance(cause) && cause.code === SdkErrorCode.ClientHttpUnexpectedContent) {
    const type = (cause.data as { contentType?: unknown } | undefined)?.contentType;
    return `content type ${typeof type === "string" && type ? type : "(none)"}`;
  }
  if (Array.isArray((cause as { issues?: unknown }).issues)) return "JSON that is not a JSON-RPC message";
  return cause instanceof Error ? cause.message : String(cause);
}

/** A modern-only connect whose probe failed: the error says it was the probe's (no fallback follows). */
export function withProbeContext(err: McpError): McpError {
  return new McpError(err.kind, `server/discover failed: ${err.message}`, copyDetails(err));
}

/**
 * The probe failed and initialize then failed too: one error naming both. It keeps the kind (and
 * HTTP details) of initialize's failure, the more telling one, unless that was only the budget
 * running out after a probe that failed for a reason of its own.
 */
export function bothFailed(reason: string, probe: McpError, initialize: McpError): McpError {
  const main = initialize.kind === "timeout" && probe.kind !== "timeout" ? probe : initialize;
  return new McpError(main.kind, `${reason}; initialize then failed: ${initialize.message}`, copyDetails(main));
}

function copyDetails(err: McpError) {
  return { code: err.code, data: err.data, status: err.status, bodyExcerpt: err.bodyExcerpt, wwwAuthenticate: err.wwwAuthenticate, cause: err };
}
