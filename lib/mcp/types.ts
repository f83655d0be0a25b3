import type { EnterpriseCredentials } from "./oauth-enterprise";
import type { MachineCredentials } from "./oauth-machine";
import type { OAuthStore } from "./oauth-provider";
import type { FetchLike, Transport } from "@modelcontextprotocol/client";
import type { TrafficRecord } from "./recording-transport";
import type { SecretValues } from "@/lib/core/redaction";

/** How to reach an HTTP server: try Streamable HTTP then legacy HTTP+SSE, or force one. */
export type TransportMode = "auto" | "streamable-http" | "sse";

/**
 * Which protocol era to speak: "auto" probes with `server/discover` and falls back to `initialize`
 * when the probe fails; "legacy" runs `initialize` only; "modern" probes only, with no fallback.
 */
export type ProtocolEra = "auto" | "legacy" | "modern";

/**
 * How a session's era was settled: "probe" (server/discover answered, or a modern-only connect),
 * "initialize" (the legacy handshake: the probe found a legacy server, or protocolEra is legacy),
 * "fallback" (the probe failed and initialize, on a fresh transport, worked), "remembered" (the era
 * saved from an earlier connect skipped the probe).
 */
export type Negotiation = "probe" | "initialize" | "fallback" | "remembered";

export type ListKind = "tools" | "resources" | "resource-templates" | "prompts";
export type ListChangedKind = "tools" | "resources" | "prompts";
export type CallMethod = "tools/call" | "resources/read" | "prompts/get";

export interface ConnectionConfig {
  /** The MCP endpoint; for legacy HTTP+SSE servers, the SSE URL (e.g. http://host/sse). */
  url: string;
  transport: TransportMode;
  /** Sent on every HTTP request, including the SSE GET stream and DELETE. Never echoed in errors. */
  headers: Record<string, string>;
  /**
   * How HTTP requests go out (the console passes its address policy's fetch); absent: global fetch.
   * When `isInternal` says the endpoint's host is inside a network, its answers are never quoted in errors.
   */
  fetch?: OutboundFetchLike;
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
  /** Default "auto"; `eraHint` applies under "auto" only. */
  protocolEra?: ProtocolEra;
  /** OAuth to the server (HTTP transports only): tokens ride on every request, refreshed by the SDK. */
  oauth?: OAuthStore;
  /** OAuth client credentials (machine to machine); takes precedence over `oauth`. */
  machine?: MachineCredentials;
  /** Enterprise-managed authorization (SEP-990): the member's ID token exchanged for an ID-JAG, then for tokens. */
  enterprise?: EnterpriseCredentials;
  /** For agent-relayed stdio servers: a ready SDK Transport replaces the HTTP transports (no fallback, no 404 logic). */
  createTransport?: () => Transport;
  /** What createTransport is, as recorded on the session: the agent relay (default) or an in-process server. */
  transportKind?: "relay" | "memory";
  onListChanged?: (kind: ListChangedKind) => void;
  /** `notifications/resources/updated` for a subscribed resource. */
  onResourceUpdated?: (uri: string) => void;
  /** Subscriptions a fresh session (after a transparent re-initialise) refused; they are forgotten. */
  onSubscriptionsDropped?: (uris: string[], reason: string) => void;
  /** The connection was lost for good (the transport closed on its own). Not called after `close()`. */
  onClose?: (reason: string) => void;
  /** `notifications/message` log lines from the server. */
  onLog?: (message: LogMessage) => void;
  /** Every JSON-RPC message in both directions (lib/mcp/recording-transport.ts); must be cheap and never throw. */
  onTraffic?: (record: TrafficRecord) => void;
  /** Secret values known now besides the header values (the server's OAuth tokens), masked in recorded traffic; must be cheap. */
  trafficSecrets?: () => SecretValues;
  /**
   * Answers a server-initiated request (elicitation, sampling, roots; in the modern era the same
   * requests embedded in `input_required` results). Given, the client declares the `elicitation`
   * (form and url), `sampling` and `roots` capabilities; absent, none of them.
   */
  onServerRequest?: (request: ServerRequest, signal: AbortSignal) => Promise<ServerRequestOutcome>;
  /** `notifications/elicitation/complete`: a URL-mode elicitation finished out of band. */
  onElicitationComplete?: (elicitationId: string) => void;
  /** A request failed with `URLElicitationRequired` (-32042): the URL elicitations it carried. */
  onUrlElicitationRequired?: (elicitations: Record<string, unknown>[]) => void;
}

export type OutboundFetchLike = FetchLike & {
  isInternal?: (url: string | URL | undefined) => boolean;
  /** A refusal (4xx) of an internal server that may be quoted all the same (lib/core/net: loopback on a loopback console). */
  quotesOwnRefusal?: (url: string | URL | undefined, status: number) => boolean;
};

/** A server→client request the console relays to a person (or answers itself, for roots). */
export type ServerRequest =
  | { method: "elicitation/create"; params: Record<string, unknown> }
  | { method: "sampling/createMessage"; params: Record<string, unknown> }
  | { method: "roots/list"; params: Record<string, unknown> };

/** The answer: a result, or a JSON-RPC error (e.g. a declined sampling request, code -1). */
export type ServerRequestOutcome = { result: Record<string, unknown> } | { error: { code: number; message: string } };

export interface ConnectionInfo {
  transport: "streamable-http" | "sse" | "relay" | "memory";
  protocolVersion: string | null;
  era: "legacy" | "modern";
  serverInfo: { name: string; version: string; [k: string]: unknown } | null;
  capabilities: Record<string, unknown> | null;
  instructions: string | null;
  /** The Mcp-Session-Id of a Streamable HTTP session, if the server issued one. */
  remoteSessionId: string | null;
  negotiation: Negotiation;
  /** Why it fell back, e.g. "server/discover answered HTTP 500 Internal Server Error; connected with initialize". */
  negotiationNote: string | null;
}

export interface RequestOptions {
  /** Per-request timeout; with `onProgress`, each progress notification restarts it. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Asks for progress (a progressToken) and receives each `notifications/progress`. */
  onProgress?: (progress: Progress) => void;
  /** Hard cap on the whole request however often progress resets the timeout (default 10 × timeoutMs). */
  maxTotalTimeoutMs?: number;
}

/** One `notifications/progress`: `total` absent means indeterminate. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** A task's state as `tasks/get` reports it. */
export interface TaskInfo {
  taskId: string;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage: string | null;
  pollIntervalMs: number | null;
}

/** What a task-augmented `tools/call` gave: a task to follow, or (server's choice) the result at once. */
export type TaskStart = { kind: "task"; task: TaskInfo } | { kind: "immediate"; result: Record<string, unknown> };

/** A finished task: its `tasks/result`. */
export type TaskOutcome =
  | { status: "completed"; result: Record<string, unknown> }
  | { status: "failed"; message: string; code?: number; data?: unknown }
  | { status: "cancelled" };

/**
 * A tool as a server lists it: the one type for a tool, from the connection to the console's
 * panels. Untrusted: every field but `name` may be missing, and servers add fields of their own.
 */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** "required": always runs as a task; "optional": when asked; anything else: never. */
  execution?: { taskSupport?: string };
  _meta?: Record<string, unknown>;
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
  /**
   * The level of log lines the server should send: `logging/setLevel` for legacy servers (throws an
   * McpError of kind "protocol" without the `logging` capability), the per-request `_meta` log level
   * for modern ones. Kept across a transparent re-initialise.
   */
  setLogLevel(level: LogLevel, opts?: RequestOptions): Promise<void>;
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
  /** Sends `notifications/roots/list_changed` (legacy era; the modern era has no such notification). Never throws. */
  rootsChanged(): Promise<void>;
  /** A task-augmented `tools/call` (`execution.taskSupport` "required" or "optional"); returns once the task exists. */
  startToolTask(params: { name: string; arguments?: Record<string, unknown> }, opts?: RequestOptions): Promise<TaskStart>;
  /** `tasks/get` on the current session. */
  getTask(taskId: string, opts?: RequestOptions): Promise<TaskInfo>;
  /** `tasks/result` of a task in a terminal state. */
  getTaskResult(taskId: string, opts?: RequestOptions): Promise<TaskOutcome>;
  /** `tasks/cancel`. */
  cancelTask(taskId: string, opts?: RequestOptions): Promise<void>;
  /** Leave the session (HTTP DELETE when there is a session id), then close. Never throws. */
  close(): Promise<void>;
}

/** RFC 5424 severities, lowest first, as MCP names them. */
export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** A `notifications/message` from a server. `data` is anything JSON (untrusted). */
export interface LogMessage {
  level: LogLevel;
  logger: string | null;
  data: unknown;
}

export type { TrafficRecord } from "./recording-transport";
