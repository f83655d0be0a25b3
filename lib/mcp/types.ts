import type { Transport } from "@modelcontextprotocol/client";

/** How to reach an HTTP server: try Streamable HTTP then legacy HTTP+SSE, or force one. */
export type TransportMode = "auto" | "streamable-http" | "sse";

export type ListKind = "tools" | "resources" | "resource-templates" | "prompts";
export type ListChangedKind = "tools" | "resources" | "prompts";
export type CallMethod = "tools/call" | "resources/read" | "prompts/get";

export interface ConnectionConfig {
  /** The MCP endpoint; for legacy HTTP+SSE servers, the SSE URL (e.g. http://host/sse). */
  url: string;
  transport: TransportMode;
  /** Sent on every HTTP request, including the SSE GET stream and DELETE. Never echoed in errors. */
  headers: Record<string, string>;
  /** Default request timeout; also bounds the whole connect (probe, initialize, fallback). */
  timeoutMs: number;
  /**
   * Cached era verdict. "legacy" skips the `server/discover` probe. "modern" is used only
   * together with `discoverResult` (zero round trips); without it the server is probed.
   * Freshness is the caller's job: a stale "modern" verdict fails at the first request.
   */
  eraHint?: "legacy" | "modern" | null;
  /** `McpConnection.discoverResult` saved from an earlier modern connection. */
  discoverResult?: Record<string, unknown> | null;
  /** For agent-relayed stdio servers: a ready SDK Transport replaces the HTTP transports (no fallback, no 404 logic). */
  createTransport?: () => Transport;
  onListChanged?: (kind: ListChangedKind) => void;
  /** `notifications/resources/updated` for a subscribed resource. */
  onResourceUpdated?: (uri: string) => void;
  /** Subscriptions a fresh session (after a transparent re-initialise) refused; they are forgotten. */
  onSubscriptionsDropped?: (uris: string[], reason: string) => void;
  /** The connection was lost for good (the transport closed on its own). Not called after `close()`. */
  onClose?: (reason: string) => void;
}

export interface ConnectionInfo {
  transport: "streamable-http" | "sse" | "relay";
  protocolVersion: string | null;
  era: "legacy" | "modern";
  serverInfo: { name: string; version: string; [k: string]: unknown } | null;
  capabilities: Record<string, unknown> | null;
  instructions: string | null;
  /** The Mcp-Session-Id of a Streamable HTTP session, if the server issued one. */
  remoteSessionId: string | null;
}

export interface RequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ToolDefinition {
  name: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  [k: string]: unknown;
}

/** What a `completion/complete` asks for: an argument of a prompt or of a resource template. */
export interface CompletionRequest {
  ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };
  argument: { name: string; value: string };
  /** Values of the other arguments already filled in. */
  context?: { arguments?: Record<string, string> };
}

/** The server's suggestions (at most 100 values per the spec). */
export interface CompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** A live MCP connection. Every failure is thrown as an explained `McpError`. */
export interface McpConnection {
  /** Updated after a transparent re-initialise. */
  readonly info: ConnectionInfo;
  /**
   * The `server/discover` result of a modern-era connection (null for legacy). Persist it with
   * the era verdict and pass it back as `ConnectionConfig.discoverResult` to skip the probe.
   */
  readonly discoverResult: Record<string, unknown> | null;
  /** Every page merged. Returns [] if the server lacks the capability. */
  list(kind: ListKind, opts?: RequestOptions): Promise<unknown[]>;
  /** Cached tools/list (fetched on first use, invalidated on list_changed and on a new session). */
  tools(): Promise<ToolDefinition[]>;
  /**
   * tools/call, resources/read, prompts/get. Resolves with the raw result object: a CallToolResult
   * with isError stays a result, and structuredContent is not checked against outputSchema here.
   */
  request(method: CallMethod, params: Record<string, unknown>, opts?: RequestOptions): Promise<Record<string, unknown>>;
  ping(opts?: RequestOptions): Promise<void>;
  /** `completion/complete`. Throws an McpError of kind "protocol" if the server lacks the `completions` capability. */
  complete(request: CompletionRequest, opts?: RequestOptions): Promise<CompletionResult>;
  /**
   * Subscribes to `notifications/resources/updated` for a URI (legacy: `resources/subscribe`; modern:
   * a `subscriptions/listen` stream). Throws if the server lacks `resources.subscribe`. Subscriptions
   * live as long as the connection and are renewed after a transparent re-initialise.
   */
  subscribeResource(uri: string, opts?: RequestOptions): Promise<void>;
  unsubscribeResource(uri: string, opts?: RequestOptions): Promise<void>;
  /** The URIs currently subscribed on this connection. */
  readonly resourceSubscriptions: string[];
  /** Leave the session (HTTP DELETE when there is a session id), then close. Never throws. */
  close(): Promise<void>;
}
