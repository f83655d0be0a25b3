import os from "node:os";
import WebSocket from "ws";
import {
  CloseCode,
  decodeConsoleFrame,
  ENVELOPE_ALLOWANCE_BYTES,
  RELAY_PATH,
  RELAY_PROTOCOL_VERSION,
  tooLargeText,
  type AgentFrame,
  type ConsoleFrame,
} from "../../lib/relay/protocol";
import type { ServerConfig } from "./config";
import type { Credentials } from "./credentials";
import { log } from "./log";
import { Sessions } from "./sessions";
import type { ShutdownTimings } from "./process";
import type { AgentTracer } from "./tracing";

export interface LinkOptions {
  credentials: Credentials;
  servers: ReadonlyMap<string, ServerConfig>;
  version: string;
  maxMessageBytes: number;
  graceMs: number;
  heartbeatMs: number;
  deadAfterMs: number;
  /** First reconnect delay; doubles per failure up to `maxBackoffMs`, with jitter. */
  backoffMs?: number;
  maxBackoffMs?: number;
  timings?: ShutdownTimings;
  tracer?: AgentTracer | null;
}

const HIGH_WATER = 4 * 1024 * 1024;
const LOW_WATER = 1024 * 1024;

/** The relay URL for a paired console. Derived only from the stored console URL: nothing else can redirect the token. */
export function relayUrl(consoleUrl: string): string {
  const url = new URL(RELAY_PATH, consoleUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}

/**
 * The agent's side of the relay: one WebSocket to the console, reconnected with exponential
 * backoff and jitter, heartbeats both ways, and a grace period that keeps processes alive
 * while the console is unreachable. Resolves `done` when the agent must stop (revoked, refused).
 */
export class AgentLink {
  private ws: WebSocket | undefined;
  private readonly sessions: Sessions;
  private attempt = 0;
  private stopped = false;
  private graceTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private drainPoll: NodeJS.Timeout | undefined;
  private holds = 0;
  private lastHeard = 0;
  private dropped = 0;
  readonly done: Promise<{ code: number; reason: string }>;
  private finish!: (result: { code: number; reason: string }) => void;

  constructor(private readonly opts: LinkOptions) {
    this.sessions = new Sessions(opts.servers, { send: (f) => this.send(f), holdInput: (w) => this.hold(w) }, opts.maxMessageBytes, opts.timings, opts.tracer);
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  start(): void {
    this.connect();
  }

  /** Closes the socket and shuts every process down. */
  async stop(reason = "stopping"): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.graceTimer);
    clearInterval(this.heartbeat);
    clearInterval(this.drainPoll);
    this.ws?.close(1000, reason);
    await this.sessions.closeAll();
    this.ws?.terminate();
    this.finish({ code: 0, reason });
  }

  private connect(): void {
    const url = relayUrl(this.opts.credentials.consoleUrl);
    log.debug(`connecting to ${url}`);
    const ws = new WebSocket(url, {
      headers: { authorization: `Bearer ${this.opts.credentials.token}` },
      followRedirects: false,
      maxPayload: this.opts.maxMessageBytes + ENVELOPE_ALLOWANCE_BYTES,
      handshakeTimeout: 15_000,
      perMessageDeflate: false,
    });
    this.ws = ws;
    ws.on("open", () => {
      this.lastHeard = Date.now();
      this.send({
        type: "hello",
        version: RELAY_PROTOCOL_VERSION,
        agent: { version: this.opts.version, hostname: os.hostname(), platform: process.platform },
        servers: [...this.opts.servers.keys()].map((name) => ({ name })),
        sessions: this.sessions.ids(),
        graceMs: this.opts.graceMs,
        maxMessageBytes: this.opts.maxMessageBytes,
      });
      clearInterval(this.heartbeat);
      this.heartbeat = setInterval(() => this.beat(ws), this.opts.heartbeatMs);
    });
    ws.on("message", (data: Buffer) => {
      this.lastHeard = Date.now();
      const decoded = decodeConsoleFrame(data, this.opts.maxMessageBytes);
      if (!decoded.ok) {
        log.debug(`dropped a bad frame: ${decoded.error.message}`);
        if (!looksLikeError(data)) this.send(decoded.error);
        return;
      }
      this.onFrame(decoded.frame);
    });
    ws.on("unexpected-response", (_req, res) => {
      const status = res.statusCode ?? 0;
      log.debug(`console answered the upgrade with HTTP ${status}`);
      if (status === 401 || status === 403) this.refused("the console refused this agent's token (revoked or unpaired); pair again");
      else ws.terminate();
    });
    ws.on("error", (err) => log.debug(`socket error: ${err.message}`));
    ws.on("close", (code, reason) => this.onClose(ws, code, reason.toString()));
  }

  private onFrame(frame: ConsoleFrame): void {
    switch (frame.type) {
      case "welcome":
        this.attempt = 0;
        clearTimeout(this.graceTimer);
        this.graceTimer = undefined;
        log.info(`connected to ${this.opts.credentials.consoleUrl} with ${this.opts.servers.size} server(s)`);
        this.sessions.reportRoots = frame.features?.includes("roots") ?? false;
        this.sessions.maxBytes = Math.min(this.opts.maxMessageBytes, frame.maxMessageBytes);
        void this.sessions.retain(frame.sessions);
        return;
      case "open":
        void this.sessions.open(frame.session, frame.server);
        return;
      case "message":
        this.sessions.message(frame.session, frame.message);
        return;
      case "close":
        void this.sessions.close(frame.session);
        return;
      case "ping":
        this.send({ type: "pong", t: frame.t });
        return;
      case "pong":
        return;
      case "error":
        log.warn(`console: ${frame.message}${frame.session ? ` (session ${frame.session})` : ""}`);
        return;
    }
  }

  private onClose(ws: WebSocket, code: number, reason: string): void {
    if (this.ws !== ws) return;
    clearInterval(this.heartbeat);
    if (this.holds > 0) ws.resume();
    this.holds = 0;
    if (this.stopped) return;
    if (code === CloseCode.revoked || code === CloseCode.unauthorized) {
      return this.refused(code === CloseCode.revoked ? "this agent was revoked in the console" : `the console refused this agent: ${reason}`);
    }
    if (code === CloseCode.badVersion) return this.refused(`protocol version mismatch: ${reason}. Update the agent from the console (npx <console>/agent.tgz)`);
    if (this.sessions.size > 0 && !this.graceTimer) {
      log.warn(`link lost; keeping ${this.sessions.size} session(s) alive for ${Math.round(this.opts.graceMs / 1000)} s`);
      this.graceTimer = setTimeout(() => {
        log.warn("grace period over; shutting sessions down");
        void this.sessions.closeAll();
      }, this.opts.graceMs);
    }
    const base = this.opts.backoffMs ?? 500;
    const ceiling = Math.min(this.opts.maxBackoffMs ?? 30_000, base * 2 ** this.attempt);
    const delay = Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
    this.attempt = Math.min(this.attempt + 1, 16);
    log.info(`disconnected (${code}${reason ? ` ${reason}` : ""}); reconnecting in ${delay} ms`);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private refused(message: string): void {
    log.error(message);
    this.stopped = true;
    clearTimeout(this.graceTimer);
    clearInterval(this.heartbeat);
    this.ws?.terminate();
    void this.sessions.closeAll().then(() => this.finish({ code: 2, reason: message }));
  }

  private beat(ws: WebSocket): void {
    if (Date.now() - this.lastHeard > this.opts.deadAfterMs) {
      log.warn(`no word from the console for ${Math.round((Date.now() - this.lastHeard) / 1000)} s; dropping the link`);
      ws.terminate();
      return;
    }
    this.send({ type: "ping", t: Date.now() });
  }

  /** Sends a frame; false when the link is down (the frame is dropped). */
  private send(frame: AgentFrame): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      if (frame.type === "message" && ++this.dropped % 100 === 1) log.debug(`link down: dropped ${this.dropped} message(s)`);
      return false;
    }
    ws.send(frame.type === "message" ? this.encodeMessage(frame) : JSON.stringify(frame));
    if (ws.bufferedAmount > HIGH_WATER && !this.drainPoll) {
      this.sessions.setPaused(true);
      this.drainPoll = setInterval(() => {
        if (ws.readyState === WebSocket.OPEN && ws.bufferedAmount > LOW_WATER) return;
        clearInterval(this.drainPoll);
        this.drainPoll = undefined;
        this.sessions.setPaused(false);
      }, 5);
    }
    return true;
  }

  /**
   * A server's message as a frame, or, when the frame would be over the console's cap, a small
   * error frame naming its size (re-encoding can outgrow the line the decoder measured: 1e9 is
   * written 1000000000), so the console fails the request at once.
   */
  private encodeMessage(frame: Extract<AgentFrame, { type: "message" }>): string {
    const text = JSON.stringify(frame);
    const cap = this.sessions.maxBytes;
    if (text.length * 3 <= cap + ENVELOPE_ALLOWANCE_BYTES) return text;
    const bytes = Buffer.byteLength(text);
    if (bytes <= cap + ENVELOPE_ALLOWANCE_BYTES) return text;
    const m = frame.message as { id?: string | number; method?: string };
    const request = m.id !== undefined && m.method === undefined ? m.id : undefined;
    const message = tooLargeText(request === undefined ? "A message from the server" : "The server's answer", bytes, cap);
    log.warn(`${message}; dropped`);
    const error: AgentFrame = { type: "error", session: frame.session, code: "too_large", message, ...(request === undefined ? {} : { request }) };
    return JSON.stringify(error);
  }

  /** A child's stdin is full: stop reading the socket until it drains (bounded memory). */
  private hold(wait: Promise<void>): void {
    const ws = this.ws;
    if (!ws) return;
    if (this.holds++ === 0) ws.pause();
    void wait.then(() => {
      if (this.ws !== ws || this.holds === 0) return;
      if (--this.holds === 0) ws.resume();
    });
  }
}

function looksLikeError(data: Buffer): boolean {
  return data.length < 4096 && /"type"\s*:\s*"error"/.test(data.toString("utf8"));
}
