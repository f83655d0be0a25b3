/** A reader for GET /api/v1/events (SSE) in tests: collects every event and waits for one by predicate. */

export type WorkspaceEvent = { type: string; [key: string]: unknown };

export interface EventStream {
  /** Every event received so far, in order. */
  readonly events: WorkspaceEvent[];
  /** The SSE `id:` of each event (same index as `events`; null when the event had none). */
  readonly ids: (string | null)[];
  /** Resolves with the first event (at index `from` or later) that matches; rejects after `timeoutMs`. */
  next(match: (event: WorkspaceEvent) => boolean, opts?: { from?: number; timeoutMs?: number }): Promise<WorkspaceEvent>;
  close(): void;
}

/**
 * Opens the workspace event stream (or `path`, e.g. a session's stream) with a bearer token,
 * resuming after `lastEventId` when given (as EventSource does on reconnect). Resolves once the
 * response headers arrived.
 */
export async function openEvents(baseUrl: string, token: string, opts: { lastEventId?: string; path?: string } = {}): Promise<EventStream> {
  const abort = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (opts.lastEventId) headers["last-event-id"] = opts.lastEventId;
  const res = await fetch(`${baseUrl}${opts.path ?? "/api/v1/events"}`, { headers, signal: abort.signal });
  if (!res.ok || !res.body) throw new Error(`GET /api/v1/events: ${res.status}`);
  const events: WorkspaceEvent[] = [];
  const ids: (string | null)[] = [];
  const waiters = new Set<() => void>();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = frame.split("\n");
        const data = lines
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trimStart())
          .join("\n");
        const id = lines.find((line) => line.startsWith("id:"))?.slice(3).trim() ?? null;
        if (data) {
          events.push(JSON.parse(data) as WorkspaceEvent);
          ids.push(id);
        }
      }
      for (const wake of [...waiters]) wake();
    }
  })();

  function next(match: (event: WorkspaceEvent) => boolean, { from = 0, timeoutMs = 15_000 } = {}): Promise<WorkspaceEvent> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = events.slice(from).find(match);
        if (!found) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`No matching event within ${timeoutMs} ms; got ${JSON.stringify(events.slice(from))}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  }

  return { events, ids, next, close: () => abort.abort() };
}
