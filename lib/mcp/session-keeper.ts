import type { RequestOptions as SdkRequestOptions } from "@modelcontextprotocol/client";
import { openSession } from "./connect";
import { McpError } from "./errors";
import { explainError, failureContext } from "./explain";
import type { Session, SessionHooks } from "./session";
import { isSessionGone } from "./transports";
import type { ConnectionConfig, ConnectionInfo, Progress, RequestOptions } from "./types";

export type SdkCall<T> = (session: Session, options: SdkRequestOptions) => Promise<T>;

/**
 * The live session behind a connection: runs each SDK call on it with timeout and cancellation,
 * and replaces it when the server forgot it. The subclass says what a new session takes over.
 */
export abstract class SessionKeeper {
  protected session: Session | null = null;
  protected lastInfo: ConnectionInfo | null = null;
  protected reopening: Promise<Session> | null = null;
  /** Replaced sessions whose last requests are still settling; ended for good by close(). */
  protected readonly retired = new Set<Session>();
  protected closed = false;
  protected abstract readonly hooks: SessionHooks;

  constructor(protected readonly config: ConnectionConfig) {}

  /** Makes `session` the live one. */
  protected abstract adopt(session: Session): void;

  /** Carries the connection's state (subscriptions, log level) over to a session that replaced another. */
  protected abstract renew(fresh: Session): Promise<void>;

  async start(): Promise<void> {
    this.adopt(await openSession(this.config, this.hooks));
  }

  /**
   * Runs one SDK call with timeout and cancellation. If the server forgot the session, opens a
   * fresh one (shared by every request that failed the same way) and retries once.
   */
  protected async run<T>(call: SdkCall<T>, opts: RequestOptions = {}): Promise<T> {
    const timeoutMs = opts.timeoutMs ?? this.config.timeoutMs;
    const started = Date.now();
    const session = await this.current();
    try {
      return await this.attempt(session, call, opts, timeoutMs);
    } catch (err) {
      if (this.closed || opts.signal?.aborted || !isSessionGone(err, session.transport)) {
        throw this.explain(err, session, timeoutMs);
      }
    }
    const fresh = await this.reopen(session);
    const remaining = timeoutMs - (Date.now() - started);
    if (remaining <= 0) throw new McpError("timeout", `Request timed out after ${timeoutMs} ms`);
    try {
      return await this.attempt(fresh, call, opts, remaining);
    } catch (err) {
      throw this.explain(err, fresh, timeoutMs);
    }
  }

  private async attempt<T>(session: Session, call: SdkCall<T>, opts: RequestOptions, timeoutMs: number): Promise<T> {
    // One signal for the request: the caller's cancel is forwarded to it (AbortSignal.any would
    // make a second, dearer one per call).
    const poison = new AbortController();
    const outer = opts.signal;
    const forward = () => poison.abort(outer!.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener("abort", forward, { once: true });
    const signal = poison.signal;
    const fail = (err: McpError) => poison.abort(err);
    session.track(fail);
    const { progressKey } = opts as { progressKey?: string };
    const unroute = progressKey && opts.onProgress ? session.progressRouter?.route(progressKey, opts.onProgress) : undefined;
    try {
      return await call(session, { timeout: timeoutMs, signal, ...progressOptions(opts, timeoutMs, unroute !== undefined) });
    } catch (err) {
      if (opts.signal?.aborted) throw cancelled(opts.signal.reason, err);
      if (poison.signal.aborted) throw poison.signal.reason;
      throw err;
    } finally {
      outer?.removeEventListener("abort", forward);
      session.untrack(fail);
      unroute?.();
    }
  }

  private explain(err: unknown, session: Session, timeoutMs: number): McpError {
    return explainError(err, { url: this.config.url, timeoutMs, http: session.recorder?.lastFailure, ...failureContext(this.config) });
  }

  /** The live session; opens one if an earlier re-initialise failed. */
  private async current(): Promise<Session> {
    if (this.closed) throw closedError();
    if (this.reopening) return this.reopening;
    if (this.session?.isBroken) return this.reopen(this.session);
    return this.session ?? this.reopen(null);
  }

  private reopen(stale: Session | null): Promise<Session> {
    if (this.reopening) return this.reopening;
    if (this.session !== stale && this.session) return Promise.resolve(this.session);
    const era = stale?.info.era ?? this.lastInfo?.era;
    const reopening = (async () => {
      this.session = null;
      for (const old of this.retired) if (old.isEnded) this.retired.delete(old);
      if (stale) {
        stale.retire();
        this.retired.add(stale);
      }
      const fresh = await openSession(this.config, this.hooks, {
        mode: stale && (stale.kind === "streamable-http" || stale.kind === "sse") ? stale.kind : undefined,
        prior: era === "legacy" ? { kind: "legacy" } : undefined,
      });
      if (this.closed) {
        await fresh.end({ leave: true });
        throw closedError();
      }
      this.adopt(fresh);
      await this.renew(fresh);
      return fresh;
    })();
    this.reopening = reopening;
    reopening.then(
      () => (this.reopening = null),
      () => (this.reopening = null),
    );
    return reopening;
  }
}

/** Progress restarts the timeout, up to a hard maximum (10 × the timeout unless the caller set one). */
/** With a routed request the router delivers progress; the SDK's handler only resets the timeout. */
function progressOptions({ onProgress, maxTotalTimeoutMs }: RequestOptions, timeoutMs: number, routed: boolean): SdkRequestOptions {
  if (!onProgress) return {};
  const onprogress = routed ? () => undefined : ({ progress, total, message }: Progress) => onProgress({ progress, total, message });
  return { onprogress, resetTimeoutOnProgress: true, maxTotalTimeout: Math.max(timeoutMs, maxTotalTimeoutMs ?? timeoutMs * 10) };
}

function cancelled(reason: unknown, cause: unknown): McpError {
  const said = reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "";
  const detail = said && !/operation was aborted/i.test(said) ? ` (${said})` : "";
  return new McpError("cancelled", `Request cancelled${detail}`, { cause });
}

function closedError(): McpError {
  return new McpError("closed", "The connection is closed");
}
