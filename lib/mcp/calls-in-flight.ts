import { callEnded, McpError, type CallEnding } from "./errors";

/**
 * The tools/call requests in flight on one connection, each settling with how it ended: what a
 * server request (elicitation, sampling, a task) arriving meanwhile belongs to.
 */
export class CallsInFlight {
  private readonly calls = new Set<Promise<CallEnding>>();

  /** Runs one call, known as in flight until it settles. */
  async track<T>(call: Promise<T>): Promise<T> {
    const ending = call.then(() => "finished" as const, endingOf);
    this.calls.add(ending);
    try {
      return await call;
    } finally {
      this.calls.delete(ending);
    }
  }

  /**
   * Aborts once every call in flight now has ended, with callEnded() saying how the last one
   * ended; never, with none in flight (the request's own deadline bounds it then).
   */
  scope(): AbortSignal {
    const scope = new AbortController();
    if (this.calls.size > 0) {
      let last: CallEnding = "finished";
      const endings = [...this.calls].map((ending) => ending.then((how) => (last = how)));
      void Promise.all(endings).then(() => scope.abort(callEnded(last)));
    }
    return scope.signal;
  }
}

/** How a call ended, for the server requests bound to it. */
function endingOf(err: unknown): CallEnding {
  const kind = err instanceof McpError ? err.kind : null;
  return kind === "timeout" ? "timed out" : kind === "cancelled" ? "cancelled" : kind === "closed" || kind === "offline" ? "interrupted" : "failed";
}
