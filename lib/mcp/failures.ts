import { SwitchboardError } from "@/lib/core/errors";
import { McpError, type McpErrorKind } from "./errors";
import { explainError } from "./explain";

/** A call whose host did not come back with the answers in time (lib/gateway/bridge/input.ts): recorded as timed out. */
export class HostTimeout extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HostTimeout";
  }
}

/** A person must sign in to the server (or consent to more scope) before this can work. */
export interface SignInRequired {
  oauth: "sign_in_required" | "step_up_required";
  serverId: string;
  authorizeUrl: string;
  scope?: string;
}

/** Failures that carry nothing but their kind and a message for people. */
type PlainKind = Exclude<McpErrorKind, "protocol" | "http" | "unauthorized"> | "host_timeout";

/**
 * Everything an exchange with an upstream can end in, short of an answer. The kinds below
 * `McpErrorKind` (see lib/mcp/errors.ts) plus what only the console knows: the relay's cap, a
 * host that never came back, a sign-in that is missing, and the console's own errors.
 */
export type Failure =
  /** The server answered a JSON-RPC error (code) or broke the protocol (no code). */
  | { kind: "protocol"; message: string; code?: number; data?: unknown }
  /** The relay refused a message over its cap: a JSON-RPC error the console wrote (code -32000, data.relay). */
  | { kind: "too_large"; message: string; code: number; data?: unknown }
  | { kind: "http" | "unauthorized"; message: string; status?: number; data?: unknown }
  | { kind: "sign_in"; message: string; oauth: SignInRequired }
  | { kind: PlainKind; message: string }
  /** The console's own error (bad input, a refusal): passed through as it is. */
  | { kind: "console"; error: SwitchboardError };

type FailureKind = Failure["kind"];

const PLAIN: readonly PlainKind[] = ["dns", "refused", "blocked", "tls", "timeout", "host_timeout", "content_type", "protocol_version", "cancelled", "closed", "offline", "unknown"];
const DETAILED: readonly FailureKind[] = [...PLAIN, "protocol", "too_large", "http", "unauthorized"];

/** The one reading of whatever an upstream exchange threw. */
export function classifyFailure(err: unknown): Failure {
  if (err instanceof SwitchboardError) return fromApiError(err);
  if (err instanceof HostTimeout) return { kind: "host_timeout", message: err.message };
  const e = err instanceof McpError ? err : explainError(err);
  const extra = { ...(e.code === undefined ? {} : { code: e.code }), ...(e.data === undefined ? {} : { data: e.data }) };
  if (e.kind === "protocol") {
    const relay = (e.data as { relay?: unknown } | undefined)?.relay;
    if (relay === "too_large" && e.code !== undefined) return { kind: "too_large", message: e.message, code: e.code, ...(e.data === undefined ? {} : { data: e.data }) };
    return { kind: "protocol", message: e.message, ...extra };
  }
  if (e.kind === "http" || e.kind === "unauthorized") {
    return { kind: e.kind, message: e.message, ...(e.status === undefined ? {} : { status: e.status }), ...(e.data === undefined ? {} : { data: e.data }) };
  }
  return { kind: e.kind, message: e.message };
}

/** An API error read back (toApiError's output, thrown on by an earlier step) as the failure it rendered. */
function fromApiError(err: SwitchboardError): Failure {
  const details = err.details as { kind?: unknown; code?: unknown; status?: unknown; oauth?: unknown } | undefined;
  if (details?.oauth === "sign_in_required" || details?.oauth === "step_up_required") return { kind: "sign_in", message: err.message, oauth: details as SignInRequired };
  const kind = DETAILED.find((k) => k === details?.kind);
  if ((err.code !== "upstream_error" && err.code !== "forbidden") || !kind) return { kind: "console", error: err };
  const code = typeof details!.code === "number" ? details!.code : undefined;
  const status = typeof details!.status === "number" ? details!.status : undefined;
  if (kind === "too_large") return { kind, message: err.message, code: code ?? -32000 };
  if (kind === "protocol") return { kind, message: err.message, ...(code === undefined ? {} : { code }) };
  if (kind === "http" || kind === "unauthorized") return { kind, message: err.message, ...(status === undefined ? {} : { status }) };
  return { kind: kind as PlainKind, message: err.message };
}

function failureMessage(failure: Failure): string {
  return failure.kind === "console" ? failure.error.message : failure.message;
}

/**
 * The API's error: the console's own passes through, a missing sign-in is 502 with what to do,
 * a refused address 403, anything else 502 with its kind (and JSON-RPC code or HTTP status).
 */
export function toApiError(failure: Failure): SwitchboardError {
  switch (failure.kind) {
    case "console":
      return failure.error;
    case "sign_in":
      return new SwitchboardError("upstream_error", failure.message, failure.oauth);
    case "blocked":
      return new SwitchboardError("forbidden", failure.message, { kind: "blocked" });
    default: {
      const code = "code" in failure && failure.code !== undefined ? { code: failure.code } : {};
      const status = "status" in failure && failure.status !== undefined ? { status: failure.status } : {};
      return new SwitchboardError("upstream_error", failure.message, { kind: failure.kind, ...code, ...status });
    }
  }
}

/** The error stored on a call row (CallError in lib/domains/calls): what the history and the call page read. */
interface RecordedFailure {
  status: "error" | "timeout" | "cancelled";
  error: { kind: "protocol" | "timeout" | "cancelled" | "connection" | "offline"; message: string; code?: number; data?: unknown; oauth?: SignInRequired };
}

export function toCallError(failure: Failure): RecordedFailure {
  switch (failure.kind) {
    case "protocol":
    case "too_large": {
      const { message, code, data } = failure;
      return { status: "error", error: { kind: "protocol", message, ...(code === undefined ? {} : { code }), ...(data === undefined ? {} : { data }) } };
    }
    case "timeout":
    case "host_timeout":
      return { status: "timeout", error: { kind: "timeout", message: failure.message } };
    case "cancelled":
      return { status: "cancelled", error: { kind: "cancelled", message: failure.message } };
    case "offline":
      return { status: "error", error: { kind: "offline", message: failure.message } };
    case "sign_in":
      return { status: "error", error: { kind: "connection", message: failure.message, oauth: failure.oauth } };
    default:
      return { status: "error", error: { kind: "connection", message: failureMessage(failure) } };
  }
}

export interface JsonRpcFailure {
  code: number;
  message: string;
  data?: unknown;
}

/** Kinds where nothing upstream answered the request. */
const UNREACHED: readonly FailureKind[] = ["dns", "refused", "blocked", "tls", "closed", "offline", "unknown", "http", "unauthorized", "content_type", "protocol_version"];

/**
 * The JSON-RPC error a host behind the gateway gets: the server's own error (and the relay's
 * too_large) with its code and data, anything else -32603 naming the server, with the kind in data.
 */
export function toJsonRpcError(failure: Failure, server?: string): JsonRpcFailure {
  if ((failure.kind === "protocol" || failure.kind === "too_large") && failure.code !== undefined) {
    return { code: failure.code, message: failure.message, ...(failure.data === undefined ? {} : { data: failure.data }) };
  }
  const message = failureMessage(failure);
  const who = server === undefined ? undefined : `"${server}"`;
  const said =
    failure.kind === "sign_in" ? message : UNREACHED.includes(failure.kind) ? `${who ?? "The server"} could not be reached: ${message}` : who ? `${who}: ${message}` : message;
  return { code: -32603, message: said, data: { kind: failure.kind === "console" ? failure.error.code : failure.kind } };
}
