import { tooLargeText, type AgentFrame } from "../../lib/relay/protocol";
import type { ServerConfig } from "./config";
import { log } from "./log";
import { oversizedId } from "./framing";
import { checkRoots } from "./roots";
import { ServerProcess, type ShutdownTimings } from "./process";
import type { AgentTracer } from "./tracing";

const STDERR_FRAME_CHARS = 60_000;

/** What the sessions need from the link. `send` returns false when the frame could not be sent. */
export interface FrameSink {
  send(frame: AgentFrame): boolean;
  /** Stop reading console frames until `wait` settles (a child's stdin is full). */
  holdInput(wait: Promise<void>): void;
}

/**
 * The agent's live sessions: one process each, started only from the local config.
 * Console frames name a server; nothing in them reaches spawn() except through that lookup.
 */
export class Sessions {
  private readonly live = new Map<string, ServerProcess>();
  /** Ids of the `roots/list` requests each session's server sent and the console has not answered yet. */
  private readonly rootsAsked = new Map<string, Set<string | number>>();
  private paused = false;
  /** Whether the console accepts `roots` frames (it listed the feature in its welcome). */
  reportRoots = false;

  constructor(
    private readonly servers: ReadonlyMap<string, ServerConfig>,
    private readonly sink: FrameSink,
    /** The cap on one message from a server; the link lowers it to the console's. */
    public maxBytes: number,
    private readonly timings?: ShutdownTimings,
    /** Continues traced requests' traces to the server (./tracing.ts); absent without an OTLP endpoint. */
    private readonly tracer?: AgentTracer | null,
  ) {}

  ids(): string[] {
    return [...this.live.keys()];
  }

  get size(): number {
    return this.live.size;
  }

  async open(session: string, serverName: string): Promise<void> {
    const config = this.servers.get(serverName);
    if (!config) {
      log.warn(`refused: the console asked for "${serverName}", which is not in the local config`);
      this.sink.send({ type: "error", session, code: "unknown_server", message: `This agent does not list a server named "${serverName}"` });
      return;
    }
    if (this.live.has(session)) {
      this.sink.send({ type: "error", session, code: "bad_frame", message: "Session exists already" });
      return;
    }
    const maxBytes = this.maxBytes;
    const proc = new ServerProcess(config, maxBytes, {
      message: (message) => {
        const m = message as { id?: string | number; method?: string };
        if (m.method === "roots/list" && m.id !== undefined) this.rootsAsked.get(session)?.add(m.id);
        this.tracer?.received(session, message);
        this.sink.send({ type: "message", session, message: message as { jsonrpc: "2.0" } });
      },
      stderr: (chunk) => {
        for (let i = 0; i < chunk.length; i += STDERR_FRAME_CHARS) {
          this.sink.send({ type: "stderr", session, chunk: chunk.slice(i, i + STDERR_FRAME_CHARS) });
        }
      },
      invalid: (reason) => {
        log.warn(`[${serverName}] ${reason}`);
        this.sink.send({ type: "error", session, code: "bad_frame", message: reason.slice(0, 2000) });
      },
      oversized: (skipped) => {
        const found = oversizedId(skipped);
        const message = tooLargeText(found ? (found.request ? "The server's request" : "The server's answer") : "A message from the server", skipped.bytes, maxBytes);
        log.warn(`[${serverName}] ${message}; dropped`);
        // A request of the server's own is refused to the server; an answer fails the console's request.
        if (found?.request) proc.send({ jsonrpc: "2.0", id: found.id, error: { code: -32000, message } });
        else this.sink.send({ type: "error", session, code: "too_large", message, ...(found ? { request: found.id } : {}) });
      },
      exit: (info) => {
        this.live.delete(session);
        this.rootsAsked.delete(session);
        this.tracer?.ended(session, "process_exited");
        if (info.error) log.error(`[${serverName}] ${info.error}`);
        else log.info(`[${serverName}] exited (code ${info.code}, signal ${info.signal})`);
        this.sink.send({ type: "exit", session, code: info.code, signal: info.signal, stderrTail: info.stderrTail, ...(info.error ? { error: info.error.slice(0, 2000) } : {}) });
      },
    }, this.timings);
    this.live.set(session, proc);
    this.rootsAsked.set(session, new Set());
    if (this.paused) proc.setPaused(true);
    log.info(`[${serverName}] starting: ${config.command} ${config.args.join(" ")}`.trim());
    const pid = await proc.start();
    if (pid !== null && this.live.get(session) === proc) this.sink.send({ type: "opened", session, pid });
  }

  message(session: string, message: unknown): void {
    const proc = this.live.get(session);
    if (!proc) {
      this.sink.send({ type: "error", session, code: "unknown_session", message: "No such session on this agent (it may have ended)" });
      return;
    }
    const checked = this.checkedRoots(session, proc.config.roots ?? [], message);
    if (!proc.send(this.tracer ? this.tracer.sending(session, proc.config.name, proc.pid, checked) : checked)) this.sink.holdInput(proc.drained());
  }

  /** The console's answer to a `roots/list` of the server, without the roots this machine refuses. */
  private checkedRoots(session: string, allowed: readonly string[], message: unknown): unknown {
    const m = message as { id?: string | number; method?: string; result?: { roots?: unknown } };
    const asked = this.rootsAsked.get(session);
    if (m.method !== undefined || m.id === undefined || !asked?.delete(m.id) || !Array.isArray(m.result?.roots)) return message;
    const { kept, refused } = checkRoots(m.result.roots, allowed);
    if (refused.length === 0) return message;
    for (const r of refused) log.warn(`refused root ${r.uri}: ${r.reason}`);
    if (this.reportRoots) this.sink.send({ type: "roots", session, refused: refused.slice(0, 100) });
    return { ...m, result: { ...m.result, roots: kept } };
  }

  /** Ends one session (the exit frame follows). */
  async close(session: string): Promise<void> {
    await this.live.get(session)?.shutdown();
  }

  /** Keeps the listed sessions and ends every other one. */
  async retain(keep: Iterable<string>): Promise<void> {
    const wanted = new Set(keep);
    await Promise.all(this.ids().filter((id) => !wanted.has(id)).map((id) => this.close(id)));
  }

  /** Back-pressure from the socket: stop or resume reading every process's stdout. */
  setPaused(paused: boolean): void {
    if (this.paused === paused) return;
    this.paused = paused;
    for (const proc of this.live.values()) proc.setPaused(paused);
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.ids().map((id) => this.close(id)));
  }
}
