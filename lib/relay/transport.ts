import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { byteLength, tooLargeText, type ConsoleFrame } from "./protocol";
import { isAgentServerHere, relayHub, type SessionEndpoint, type SessionFrame } from "./hub";

const HIGH_WATER = 8 * 1024 * 1024;
const OPEN_TIMEOUT_MS = 30_000;
/** JSON-RPC error code for requests that the relay could not complete; `data.relay` says why. */
export const RELAY_ERROR_CODE = -32000;
/**
 * `offline`: the agent's link is down; `connection`: the server process or its session ended;
 * `too_large`: the request or its answer is over the relay's cap on one message.
 */
export type RelayFailure = "offline" | "connection" | "too_large";
const PROBE_PREFIX = "server-discover-probe";

export interface RelayTransportOptions {
  agentId: string;
  /** A name the agent announced. The console never sends anything else to pick a process. */
  serverName: string;
  /** Live stderr of the process. */
  onstderr?: (chunk: string) => void;
}

/** Thrown (or delivered as a request's error) when the agent cannot be reached. */
export class AgentOfflineError extends Error {
  constructor(detail: string) {
    super(`agent offline: ${detail}`);
    this.name = "AgentOfflineError";
  }
}

/**
 * An MCP SDK `Transport` to a stdio server on a paired agent: one relay session, one process.
 *
 * It is stdio-shaped for the SDK's era negotiation (it has `pid` and `stderr`), so a probe that
 * times out counts as a legacy server as with a local stdio transport. A server that exits on the
 * `server/discover` probe is started again once, and the probe answered "method not found", which
 * gives the SDK's disposable-sibling behaviour without a second process per session.
 *
 * While the link is down, `send` fails at once with "agent offline" and requests in flight get a
 * JSON-RPC error; if the agent returns within its grace period the session simply continues.
 */
export class RelayTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** The process id on the agent's machine, once started. */
  pid: number | null = null;
  /** Always null: stderr arrives through `onstderr` (present so the SDK sees a stdio transport). */
  readonly stderr = null;

  private session = "";
  private offline: string | null = null;
  private closed = false;
  private started = false;
  private respawned = false;
  private everOpened = false;
  private closeFired = false;
  private sawServerMessage = false;
  private readonly pending = new Map<string | number, string>();
  private opening: { resolve: () => void; reject: (err: Error) => void; timer: ReturnType<typeof setTimeout> } | null = null;
  private ready: Promise<void> = Promise.resolve();

  constructor(private readonly opts: RelayTransportOptions) {}

  get relaySessionId(): string {
    return this.session;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("RelayTransport already started");
    this.started = true;
    this.ready = this.open();
    await this.ready;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.ready;
    if (this.closed) throw new Error("relay session closed");
    if (this.offline) throw new AgentOfflineError(this.offline);
    const link = relayHub().links.get(this.opts.agentId);
    if (!link) throw new AgentOfflineError("the agent is not connected");
    const frame: ConsoleFrame = { type: "message", session: this.session, message };
    const text = JSON.stringify(frame);
    // UTF-8 takes at most 3 bytes per UTF-16 unit: most frames need no count.
    const bytes = text.length * 3 <= link.maxMessageBytes ? text.length : byteLength(text);
    const m = message as { id?: string | number; method?: string };
    const isRequest = m.id !== undefined && typeof m.method === "string";
    if (bytes > link.maxMessageBytes) {
      const why = tooLargeText(isRequest ? `The request (${m.method})` : "The message", bytes, link.maxMessageBytes);
      if (!isRequest) throw new Error(why);
      // Answered as a request the relay could not deliver: the caller (or a gateway host) gets a
      // JSON-RPC error at once instead of waiting for an answer that cannot come.
      this.pending.set(m.id!, m.method!);
      queueMicrotask(() => this.failRequest(m.id!, why, "too_large"));
      return;
    }
    if (isRequest) this.pending.set(m.id!, m.method!);
    if (!link.send(frame, text)) throw new AgentOfflineError("the link closed while sending");
    while (link.bufferedAmount() > HIGH_WATER && !this.closed && !this.offline) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  async close(): Promise<void> {
    if (this.closeFired) return;
    if (this.session) relayHub().links.get(this.opts.agentId)?.send({ type: "close", session: this.session });
    if (this.opening) this.failOpen(new Error("relay session closed while opening"));
    this.finish();
  }

  private open(): Promise<void> {
    const { agentId, serverName } = this.opts;
    if (!isAgentServerHere(agentId, serverName)) {
      return Promise.reject(new AgentOfflineError(relayHub().links.has(agentId) ? `the agent does not list "${serverName}" right now` : "the agent is not connected"));
    }
    if (this.session) relayHub().sessions.delete(this.session);
    this.session = crypto.randomUUID();
    relayHub().sessions.set(this.session, this.endpoint());
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => this.failOpen(new Error(`the agent did not start "${serverName}" within ${OPEN_TIMEOUT_MS / 1000} s`)), OPEN_TIMEOUT_MS);
      this.opening = { resolve, reject, timer };
      if (!relayHub().links.get(agentId)?.send({ type: "open", session: this.session, server: serverName })) {
        this.failOpen(new AgentOfflineError("the link closed while opening"));
      }
    });
  }

  private failOpen(err: Error): void {
    const opening = this.opening;
    if (!opening) return;
    this.opening = null;
    clearTimeout(opening.timer);
    relayHub().sessions.delete(this.session);
    this.closed = true;
    opening.reject(err);
  }

  private endpoint(): SessionEndpoint {
    return {
      agentId: this.opts.agentId,
      serverName: this.opts.serverName,
      deliver: (frame) => this.deliver(frame),
      linkDown: (reason) => {
        this.offline = reason;
        if (this.opening) return this.failOpen(new AgentOfflineError(reason));
        this.failPending(`agent offline: ${reason}`, "offline");
      },
      linkUp: () => {
        this.offline = null;
      },
      end: (reason) => {
        if (this.opening) this.failOpen(new AgentOfflineError(reason));
        else this.end(reason);
      },
    };
  }

  private deliver(frame: SessionFrame): void {
    switch (frame.type) {
      case "opened": {
        this.pid = frame.pid;
        this.everOpened = true;
        this.closed = false;
        const opening = this.opening;
        this.opening = null;
        if (opening) {
          clearTimeout(opening.timer);
          opening.resolve();
        }
        return;
      }
      case "message": {
        this.sawServerMessage = true;
        const m = frame.message as { id?: string | number; method?: string };
        if (m.id !== undefined && m.method === undefined) this.pending.delete(m.id);
        this.onmessage?.(frame.message as JSONRPCMessage);
        return;
      }
      case "stderr":
        this.opts.onstderr?.(frame.chunk);
        return;
      case "exit":
        return this.exited(frame);
      case "error":
        if (frame.code === "too_large" && frame.request !== undefined && this.pending.has(frame.request)) {
          return this.failRequest(frame.request, frame.message, "too_large");
        }
        if (frame.code === "unknown_server" || frame.code === "spawn_failed") {
          if (this.opening) this.failOpen(new Error(frame.message));
          else this.end(frame.message);
        } else this.onerror?.(new Error(`relay: ${frame.message}`));
        return;
    }
  }

  private exited(frame: Extract<SessionFrame, { type: "exit" }>): void {
    const tail = frame.stderrTail.filter(Boolean).slice(-5).join("\n");
    const reason = frame.error ?? `server process exited (code ${frame.code ?? "none"}${frame.signal ? `, signal ${frame.signal}` : ""})${tail ? `; last stderr:\n${tail}` : ""}`;
    const probe = [...this.pending.keys()].find((id) => typeof id === "string" && id.startsWith(PROBE_PREFIX));
    if (!this.opening && !this.sawServerMessage && probe !== undefined && !this.respawned && !frame.error) {
      // The server died on the era probe (some pre-2026 servers exit on unknown requests).
      this.respawned = true;
      this.pending.delete(probe);
      this.ready = this.open().then(() => {
        this.onmessage?.({ jsonrpc: "2.0", id: probe, error: { code: -32601, message: "Method not found" } } as JSONRPCMessage);
      });
      this.ready.catch((err: Error) => this.end(err.message));
      return;
    }
    if (this.opening) return this.failOpen(new Error(reason));
    this.end(reason);
  }

  private end(reason: string): void {
    if (this.closeFired) return;
    this.failPending(reason, /^agent (offline|revoked)\b/.test(reason) ? "offline" : "connection");
    this.onerror?.(new Error(reason));
    this.finish();
  }

  private failPending(message: string, relay: RelayFailure): void {
    for (const id of [...this.pending.keys()]) this.failRequest(id, message, relay);
  }

  private failRequest(id: string | number, message: string, relay: RelayFailure): void {
    if (!this.pending.delete(id)) return;
    this.onmessage?.({ jsonrpc: "2.0", id, error: { code: RELAY_ERROR_CODE, message, data: { relay } } } as JSONRPCMessage);
  }

  private finish(): void {
    this.closed = true;
    relayHub().sessions.delete(this.session);
    if (this.closeFired || !this.everOpened) return;
    this.closeFired = true;
    this.onclose?.();
  }
}
