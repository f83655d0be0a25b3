import { STATUS_CODES } from "node:http";
import { InsufficientScopeError, OAuthError, ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError } from "@modelcontextprotocol/client";
import { findAddressRefusal } from "@/lib/core/net";
import { maskSecretValues, secretValues } from "@/lib/core/redaction";
import { McpError, type McpErrorKind } from "./errors";
import type { HttpFailure } from "./http";
import { forbiddenForCredentials, summarizeBody } from "./own-text";
import type { ConnectionConfig } from "./types";

/** What the caller knows that the error does not carry. */
interface ExplainContext {
  url?: string;
  timeoutMs?: number;
  /** The last failed HTTP response seen on the connection (see http.ts). */
  http?: HttpFailure | null;
  /** The server is inside a network (loopback, private…): what it answered is never quoted. */
  internal?: boolean;
  /** A refusal with this status may be quoted although the server is internal (lib/core/net `quotesOwnRefusal`). */
  quotesRefusal?: (status: number) => boolean;
  /** Values the server was sent (stored headers): masked wherever its answer is quoted. */
  secrets?: readonly string[];
}

/** What a connection's configuration tells the explainer: whether the server is internal, which of its refusals may be quoted anyway, what to mask. */
export function failureContext(config: Pick<ConnectionConfig, "url" | "fetch" | "headers">): Pick<ExplainContext, "internal" | "quotesRefusal" | "secrets"> {
  return {
    internal: config.fetch?.isInternal?.(config.url) ?? false,
    quotesRefusal: (status) => config.fetch?.quotesOwnRefusal?.(config.url, status) ?? false,
    secrets: Object.values(config.headers),
  };
}

const JSON_RPC_NAMES: Record<number, string> = {
  [-32700]: "Parse error",
  [-32600]: "Invalid request",
  [-32601]: "Method not found",
  [-32602]: "Invalid params",
  [-32603]: "Internal error",
  [-32002]: "Resource not found",
  [-32042]: "URL elicitation required",
};

const NETWORK_CODES =
  /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|UND_ERR_SOCKET|UND_ERR_CLOSED|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT|CERT_[A-Z_]+|ERR_TLS_[A-Z_]+|ERR_SSL_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_[A-Z_]+|EPROTO)\b/;

/**
 * Maps any failure from the SDK, fetch or the network to an McpError whose message names the
 * cause in plain language, e.g. "Connection refused by 127.0.0.1:4999 (is the server running?)".
 * McpErrors pass through unchanged.
 */
export function explainError(err: unknown, context: ExplainContext = {}): McpError {
  if (err instanceof McpError) return err;
  const refused = findAddressRefusal(err);
  if (refused) return new McpError("blocked", refused.message, { data: { rule: refused.rule }, cause: err });
  if (InsufficientScopeError.isInstance(err)) {
    const requiredScope = err.requiredScope;
    return new McpError("unauthorized", `HTTP 403 insufficient_scope: the server needs more access${requiredScope ? ` (scope "${requiredScope}")` : ""}`, {
      status: 403,
      data: { insufficientScope: true, requiredScope },
      cause: err,
    });
  }
  for (const link of causeChain(err)) {
    const explained = explainOne(link, context);
    if (explained) return explained;
  }
  const fetchFailure = causeChain(err).find((e) => e instanceof TypeError && e.message === "fetch failed");
  if (fetchFailure) {
    const why = messageOf((fetchFailure as Error).cause);
    const where = hostOf(context.url) ?? "the server";
    return new McpError("unknown", `Network request to ${where} failed${why ? `: ${why}` : ""}`, { cause: err });
  }
  if (SdkError.isInstance(err) && err.code === SdkErrorCode.EraNegotiationFailed) {
    return new McpError("protocol_version", err.message, { cause: err });
  }
  return new McpError("unknown", messageOf(err) || "Unknown error", { cause: err });
}

function explainOne(err: unknown, context: ExplainContext): McpError | null {
  if (err instanceof McpError) return err;
  if (ProtocolError.isInstance(err)) return explainProtocolError(err);
  if (SdkHttpError.isInstance(err)) {
    const text = typeof err.data.text === "string" ? err.data.text : undefined;
    return explainHttpStatus(err.status, err.statusText, text, context, err);
  }
  if (SdkError.isInstance(err)) return explainSdkError(err, context);
  if (OAuthError.isInstance(err)) {
    return new McpError("unauthorized", `The authorization server refused the request (${err.code})${err.message ? `: ${err.message}` : ""}`, { cause: err });
  }
  if (SseError.isInstance(err)) return explainSseError(err, context);
  if (!(err instanceof Error)) return null;

  const posted = /^Error POSTing to endpoint \(HTTP (\d{3})\): ?([\s\S]*)$/.exec(err.message);
  if (posted) return explainHttpStatus(Number(posted[1]), undefined, posted[2], context, err);
  if (err.name === "UnauthorizedError") return explainHttpStatus(401, undefined, undefined, context, err);
  if (err.name === "AbortError") return new McpError("cancelled", "Request cancelled", { cause: err });
  if (err.name === "AgentOfflineError") return new McpError("offline", err.message, { cause: err });
  if (err.name === "TimeoutError") return timeout(context.timeoutMs, err);
  if (err instanceof SyntaxError) {
    return new McpError("protocol", context.internal ? "Server sent malformed JSON" : `Server sent malformed JSON (${err.message})`, { code: -32700, cause: err });
  }
  if (isValidationError(err)) {
    return new McpError("protocol", `Server sent a message that is not valid MCP: ${firstIssue(err)}`, {
      code: -32600,
      cause: err,
    });
  }
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && NETWORK_CODES.test(code)) return explainNetwork(code, err, context);
  if (err.message === "terminated" || /other side closed/i.test(err.message)) {
    return new McpError("closed", "The server closed the connection mid-response", { cause: err });
  }
  return null;
}

function explainProtocolError(err: ProtocolError): McpError {
  const data = err.data as { supported?: unknown; requested?: unknown; relay?: unknown } | undefined;
  // The relay transport answers requests it could not deliver itself; the server never saw them.
  if (data?.relay === "offline") return new McpError("offline", err.message, { cause: err });
  if (data?.relay === "connection") return new McpError("closed", err.message, { cause: err });
  if (data?.relay === "too_large") return new McpError("protocol", err.message, { code: err.code, data: err.data, cause: err });
  if (err.code === -32022 && Array.isArray(data?.supported)) {
    return new McpError(
      "protocol_version",
      `Server does not support protocol version ${String(data.requested ?? "?")} (it supports ${data.supported.join(", ")})`,
      { code: err.code, data: err.data, cause: err },
    );
  }
  const name = JSON_RPC_NAMES[err.code];
  return new McpError("protocol", `Server returned error ${err.code}${name ? ` (${name})` : ""}: ${err.message}`, {
    code: err.code,
    data: err.data,
    cause: err,
  });
}

function explainSdkError(err: SdkError, context: ExplainContext): McpError | null {
  const data = (err.data ?? {}) as { timeout?: unknown; contentType?: unknown };
  switch (err.code) {
    case SdkErrorCode.RequestTimeout:
      if (/^AbortError\b/.test(err.message)) return new McpError("cancelled", "Request cancelled", { cause: err });
      return timeout(typeof data.timeout === "number" ? data.timeout : context.timeoutMs, err);
    case SdkErrorCode.ConnectionClosed:
    case SdkErrorCode.NotConnected:
      return new McpError("closed", "The connection to the server is closed", { cause: err });
    case SdkErrorCode.ClientHttpUnexpectedContent:
      return contentType(typeof data.contentType === "string" ? data.contentType : null, err);
    case SdkErrorCode.EraNegotiationFailed:
    case SdkErrorCode.SendFailed:
      return null;
    case SdkErrorCode.MethodNotSupportedByProtocolVersion:
      return new McpError("protocol_version", err.message, { cause: err });
    case SdkErrorCode.InvalidResult:
      return new McpError("protocol", `Server sent an invalid result: ${err.message}`, { cause: err });
    default:
      return new McpError("protocol", err.message, { cause: err });
  }
}

function explainSseError(err: SseError, context: ExplainContext): McpError {
  const message = err.message.replace(/^SSE error: /, "");
  if (/invalid content type/i.test(message)) {
    return new McpError("content_type", "Server answered the SSE stream request with a content type other than text/event-stream", {
      cause: err,
    });
  }
  if (typeof err.code === "number" && err.code >= 300) {
    return explainHttpStatus(err.code, undefined, undefined, context, err);
  }
  const code = NETWORK_CODES.exec(message)?.[1];
  if (code) return explainNetwork(code, err, context);
  return new McpError("unknown", `SSE stream failed: ${message}`, { cause: err });
}

function explainHttpStatus(
  status: number,
  statusText: string | undefined,
  body: string | undefined,
  context: ExplainContext,
  cause: unknown,
): McpError {
  const failure = context.http?.status === status ? context.http : null;
  const text = statusText || failure?.statusText || STATUS_CODES[status] || "";
  const quiet = context.internal && !(context.quotesRefusal?.(status) ?? false);
  const excerpt = quiet ? "" : (body ?? failure?.bodyExcerpt ?? "").slice(0, 500);
  const www = failure?.wwwAuthenticate ?? undefined;
  const said = maskSecretValues(summarizeBody(excerpt), secretValues(context.secrets ?? []));
  const kind: McpErrorKind = status === 401 || (status === 403 && forbiddenForCredentials(www, said)) ? "unauthorized" : "http";
  let message = `HTTP ${status}${text ? ` ${text}` : ""}`;
  if (www) message += ` — WWW-Authenticate: ${www}`;
  if (said) message += ` (server said: ${said})`;
  return new McpError(kind, message, {
    status,
    ...(excerpt ? { bodyExcerpt: excerpt } : {}),
    ...(www ? { wwwAuthenticate: www } : {}),
    cause,
  });
}

function explainNetwork(code: string, err: Error, context: ExplainContext): McpError {
  const where = endpointOf(err, context);
  const host = (err as { hostname?: unknown }).hostname ?? hostOf(context.url) ?? "the server";
  switch (code) {
    case "ECONNREFUSED":
      return new McpError("refused", `Connection refused by ${where} (is the server running?)`, { cause: err });
    case "ENOTFOUND":
    case "EAI_NONAME":
    case "EAI_FAIL":
      return new McpError("dns", `Could not resolve host name ${String(host)} (${code})`, { cause: err });
    case "EAI_AGAIN":
      return new McpError("dns", `DNS lookup for ${String(host)} failed temporarily (EAI_AGAIN)`, { cause: err });
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "EADDRNOTAVAIL":
      return new McpError("refused", `${where} is unreachable (${code})`, { cause: err });
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return new McpError("timeout", `Connecting to ${where} timed out (${code})`, { cause: err });
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
      return new McpError("timeout", `${where} stopped answering mid-request (${code})`, { cause: err });
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
      return new McpError("closed", `The server closed the connection unexpectedly (${code})`, { cause: err });
    default:
      return new McpError("tls", `TLS connection to ${where} failed: ${err.message} (${code})`, { cause: err });
  }
}

function timeout(ms: number | undefined, cause: unknown): McpError {
  return new McpError("timeout", ms === undefined ? "Request timed out" : `Request timed out after ${ms} ms`, { cause });
}

function contentType(type: string | null, cause: unknown): McpError {
  return new McpError(
    "content_type",
    `Server answered with content type ${type || "(none)"}, expected application/json or text/event-stream`,
    { cause },
  );
}

/** err, its causes, and the first member of an AggregateError, without cycles. */
function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = err;
  while (current !== undefined && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    if (current instanceof AggregateError && current.errors.length > 0 && !(current as { code?: unknown }).code) {
      current = current.errors[0];
    } else {
      current = (current as { cause?: unknown }).cause;
    }
  }
  return chain;
}

function endpointOf(err: Error, context: ExplainContext): string {
  const { address, port } = err as { address?: unknown; port?: unknown };
  if (typeof address === "string" && port !== undefined) return `${address}:${String(port)}`;
  const fromMessage = /\b(?:ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT) (\S+:\d+)/.exec(err.message)?.[1];
  if (fromMessage) return fromMessage;
  try {
    return context.url ? new URL(context.url).host : "the server";
  } catch {
    return "the server";
  }
}

function hostOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).hostname : undefined;
  } catch {
    return undefined;
  }
}

function isValidationError(err: Error): boolean {
  return err.name === "ZodError" || err.name === "$ZodError" || Array.isArray((err as { issues?: unknown }).issues);
}

function firstIssue(err: Error): string {
  const issues = (err as { issues?: Array<{ message?: unknown; path?: unknown }> }).issues;
  const issue = issues?.[0];
  if (!issue) return err.message.slice(0, 200);
  const path = Array.isArray(issue.path) && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  return `${String(issue.message)}${path}`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : typeof err === "string" ? err : "";
}
