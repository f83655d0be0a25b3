/** What went wrong, as far as a person needs to know. */
export type McpErrorKind =
  | "dns"
  | "refused"
  /** The outbound network policy refused the address; nothing was sent. */
  | "blocked"
  | "tls"
  | "timeout"
  | "http"
  | "unauthorized"
  | "content_type"
  | "protocol_version"
  | "protocol"
  | "cancelled"
  | "closed"
  /** A relayed server's agent is not connected. */
  | "offline"
  | "unknown";

interface McpErrorDetails {
  /** JSON-RPC error code when kind is "protocol". */
  code?: number;
  /** JSON-RPC error data. */
  data?: unknown;
  /** HTTP status of the failed exchange. */
  status?: number;
  /** First ~500 characters of an HTTP error body. */
  bodyExcerpt?: string;
  wwwAuthenticate?: string;
  cause?: unknown;
}

/** One error type for lib/mcp failures; the message is already written for humans and names the cause. */
export class McpError extends Error {
  readonly kind: McpErrorKind;
  readonly code?: number;
  readonly data?: unknown;
  readonly status?: number;
  readonly bodyExcerpt?: string;
  readonly wwwAuthenticate?: string;

  constructor(kind: McpErrorKind, message: string, details: McpErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "McpError";
    this.kind = kind;
    if (details.code !== undefined) this.code = details.code;
    if (details.data !== undefined) this.data = details.data;
    if (details.status !== undefined) this.status = details.status;
    if (details.bodyExcerpt !== undefined) this.bodyExcerpt = details.bodyExcerpt;
    if (details.wwwAuthenticate !== undefined) this.wwwAuthenticate = details.wwwAuthenticate;
  }
}

/** How a tools/call ended, as a server request bound to it is told. */
export type CallEnding = "finished" | "failed" | "timed out" | "cancelled" | "interrupted";

/** The abort reason of a server request whose calls all ended before it was answered. */
export function callEnded(how: CallEnding): McpError {
  return new McpError("cancelled", `The call it belonged to ended (${how})`, { data: { callEnded: how } });
}

/** How the call ended, when `reason` (an abort reason) says a server request outlived its call. */
export function callEndingOf(reason: unknown): CallEnding | null {
  const data = reason instanceof Error && (reason as McpError).kind === "cancelled" ? (reason as McpError).data : undefined;
  const how = data && typeof data === "object" ? (data as { callEnded?: unknown }).callEnded : undefined;
  return typeof how === "string" ? (how as CallEnding) : null;
}
