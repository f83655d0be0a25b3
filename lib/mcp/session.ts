import { Client, SseError, type McpSubscription, type SubscriptionFilter, type Transport, type VersionNegotiationOptions } from "@modelcontextprotocol/client";
import { McpError } from "./errors";
import { registerServerRequestHandlers, serverRequestCapabilities, type ServerRequestHooks } from "./handlers";
import { explainError } from "./explain";
import type { HttpRecorder } from "./http";
import type { ProgressRouter } from "./progress-router";
import { leaveSession, type SessionTransportKind } from "./transports";
import type { ConnectionInfo, ListChangedKind, LogLevel, LogMessage, Negotiation } from "./types";

const CLIENT_INFO = { name: "switchboard", version: "0.1.0" };
const LEAVE_TIMEOUT_MS = 5000;
const PROBE_TIMEOUT_MS = 3000;

const LIST_CHANGED: Record<string, ListChangedKind> = {
  "notifications/tools/list_changed": "tools",
  "notifications/resources/list_changed": "resources",
  "notifications/prompts/list_changed": "prompts",
};

export interface SessionHooks extends ServerRequestHooks {
  onListChanged(kind: ListChangedKind): void;
  onResourceUpdated(uri: string): void;
  /** A `notifications/message` log line. */
  onLog?(message: LogMessage): void;
  /** The level to stamp on modern-era requests (lib/mcp/logging.ts). */
  logLevel?(): LogLevel | null;
  /** The transport closed without us asking. */
  onLost(session: Session, reason: string): void;
}

/**
 * The SDK reports, only through onerror, a response stream it gave up resuming (Streamable HTTP,
 * after its retries) and a dropped legacy SSE stream (whose re-opened stream would belong to a new
 * session the server never initialised).
 */
function streamGone(err: unknown, kind: SessionTransportKind): boolean {
  if (kind === "sse") return err instanceof SseError;
  const message = err instanceof Error ? err.message : "";
  return /^(Maximum reconnection attempts|Failed to reconnect:)/.test(message);
}

/** One SDK client on one transport: a single MCP session. Replaced as a whole on re-initialise. */
export class Session {
  readonly client: Client;
  /** Fail callbacks of the requests in flight; see failInflight. */
  private readonly inflight = new Set<(err: McpError) => void>();
  private info_: ConnectionInfo | null = null;
  private subscription: McpSubscription | null = null;
  private retired = false;
  private broken = false;
  private ended: Promise<void> | null = null;
  private lastError: string | null = null;
  /** Set by connect: routes progress notifications to their callers (see progress-router.ts). */
  progressRouter: ProgressRouter | null = null;

  constructor(
    readonly kind: SessionTransportKind,
    readonly transport: Transport,
    readonly recorder: HttpRecorder | null,
    hooks: SessionHooks,
    negotiation: VersionNegotiationOptions = { mode: "auto" },
  ) {
    const onChanged = (kind: ListChangedKind) => ({ autoRefresh: false, debounceMs: 0, onChanged: () => hooks.onListChanged(kind) });
    this.client = new Client(CLIENT_INFO, {
      // MCP Apps host: the console renders `text/html;profile=mcp-app` UI resources (lib/domains/apps).
      capabilities: {
        ...serverRequestCapabilities(hooks),
        extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
      },
      versionNegotiation: negotiation,
      listChanged: { tools: onChanged("tools"), resources: onChanged("resources"), prompts: onChanged("prompts") },
    });
    this.client.setNotificationHandler("notifications/resources/updated", (n) => hooks.onResourceUpdated(n.params.uri));
    this.client.setNotificationHandler("notifications/message", (n) =>
      hooks.onLog?.({ level: n.params.level, logger: n.params.logger ?? null, data: n.params.data }),
    );
    const closeTasks = registerServerRequestHandlers(this.client, hooks);
    // Servers that send list_changed without advertising listChanged still get heard.
    this.client.fallbackNotificationHandler = async (notification) => {
      const kind = LIST_CHANGED[notification.method];
      if (kind) hooks.onListChanged(kind);
    };
    this.client.onerror = (err) => {
      const internal = this.recorder?.internal ?? false;
      this.lastError = internal ? explainError(err, { internal }).message : err instanceof Error ? err.message : String(err);
      if (err instanceof SyntaxError || Array.isArray((err as { issues?: unknown }).issues)) {
        this.failInflight(explainError(err, { internal }));
      } else if (streamGone(err, kind)) {
        this.drop(`The server went away mid-request (${this.lastError})`);
      } else if (kind === "streamable-http" && err instanceof Error && /^SSE stream disconnected/.test(err.message)) {
        // A stream the SDK cannot resume leaves its request waiting for the timeout: ask the server.
        const reason = `The server went away mid-request (${this.lastError})`;
        this.client.ping({ timeout: PROBE_TIMEOUT_MS }).catch(() => this.drop(reason));
      }
    };
    this.client.onclose = () => {
      closeTasks();
      if (this.ended) return;
      this.ended = Promise.resolve();
      // A transport that knows why it closed (a relayed process exited, an agent went away) said so last.
      hooks.onLost(this, this.lastError ? `The connection ended: ${this.lastError}` : "The server closed the connection");
    };
  }

  get discoverResult(): Record<string, unknown> | null {
    return (this.client.getDiscoverResult() as Record<string, unknown> | undefined) ?? null;
  }

  get info(): ConnectionInfo {
    if (!this.info_) throw new Error("Session is not connected");
    return this.info_;
  }

  /** Reads what the handshake (or discover) negotiated, and how. Call once connect() resolved. */
  captureInfo(negotiation: Negotiation, note: string | null): void {
    const client = this.client;
    const server = client.getServerVersion();
    this.info_ = {
      transport: this.kind,
      protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
      era: client.getProtocolEra() ?? "legacy",
      serverInfo: server ? { ...server } : null,
      capabilities: (client.getServerCapabilities() as Record<string, unknown> | undefined) ?? null,
      instructions: client.getInstructions() ?? null,
      remoteSessionId: this.kind === "streamable-http" ? (this.transport.sessionId ?? null) : null,
      negotiation,
      negotiationNote: note,
    };
  }

  /**
   * A modern connection adopted from a saved discover result gets no auto-opened
   * subscriptions/listen stream from the SDK (only a probed connect opens one), so list_changed
   * would never arrive. Open it here. Best effort: a server that refuses simply stays quiet.
   */
  async listenIfNeeded(timeoutMs: number): Promise<void> {
    const client = this.client;
    if (client.getProtocolEra() !== "modern" || client.autoOpenedSubscription) return;
    const caps = client.getServerCapabilities();
    const filter: SubscriptionFilter = {
      ...(caps?.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(caps?.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(caps?.resources?.listChanged ? { resourcesListChanged: true } : {}),
    };
    if (Object.keys(filter).length === 0) return;
    this.subscription = await client.listen(filter, { timeout: timeoutMs }).catch(() => null);
  }

  /**
   * A malformed message on an SSE stream cannot be tied to a request id, so the SDK only reports
   * it and the request would wait for its timeout. Fail what is in flight instead. (Malformed JSON
   * bodies are caught per request in http.ts and never get here.)
   */
  failInflight(err: McpError): void {
    for (const fail of [...this.inflight]) fail(err);
  }

  /**
   * The stream a response was due on is gone for good: fail what is in flight now (instead of at
   * its timeout) and end the session; the connection opens a fresh one for the next request.
   */
  private drop(reason: string): void {
    if (this.ended) return;
    this.broken = true;
    this.failInflight(new McpError("closed", reason));
    void this.end({ leave: false });
  }

  /** Dropped by drop(): the connection replaces it on the next request (renewing subscriptions). */
  get isBroken(): boolean {
    return this.broken;
  }

  track(fail: (err: McpError) => void): void {
    this.inflight.add(fail);
  }

  untrack(fail: (err: McpError) => void): void {
    this.inflight.delete(fail);
    if (this.retired && this.inflight.size === 0) void this.end({ leave: false });
  }

  /**
   * Replaced by a fresh session. Requests still in flight keep their transport until they settle
   * (each gets its own answer, usually the same 404, and retries on the fresh session); then it closes.
   */
  retire(): void {
    this.retired = true;
    if (this.inflight.size === 0) void this.end({ leave: false });
  }

  get isEnded(): boolean {
    return this.ended !== null;
  }

  /** Ends the session quietly (no onLost); with leave, sends the session DELETE first. Idempotent, never throws. */
  end({ leave }: { leave: boolean }): Promise<void> {
    // Assigned before shutdown starts, so the onclose it triggers is known to be ours.
    this.ended ??= Promise.resolve().then(() => this.shutdown(leave));
    return this.ended;
  }

  private async shutdown(leave: boolean): Promise<void> {
    try {
      await this.subscription?.close();
      if (leave) await leaveSession(this.transport, LEAVE_TIMEOUT_MS);
      if (this.client.transport) await this.client.close();
      else await this.transport.close();
    } catch {
      // Closing is best effort.
    }
  }
}
