import "server-only";

/** How long an answer may take and still go out as JSON; a slower one streams as it comes. */
const JSON_WAIT_MS = 200;

type Reader = ReadableStreamDefaultReader<Uint8Array>;

/**
 * A relayed session's event-stream answer to a host's POST of one request, as JSON when the stream
 * carries nothing but the answer and it comes quickly: the usual call, which a host then reads
 * without an SSE parser (either is allowed by Streamable HTTP, and every host accepts both).
 * Anything else is streamed unchanged: an event before the answer (progress, a server request), an
 * event id (resumable streams), an answer slower than JSON_WAIT_MS (its headers go out then).
 */
export async function jsonWhenQuick(response: Response, signal: AbortSignal, waitMs = JSON_WAIT_MS): Promise<Response> {
  if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response;
  const reader = response.body.getReader();
  const pending = reader.read();
  const first = await within(pending, waitMs, signal);
  if (first && !first.done) {
    const message = answerIn(first.value);
    if (message !== null) {
      // The SDK ends the stream as it writes the answer; one kept open is streamed.
      const reading = reader.read();
      const next = await within(reading, waitMs, signal);
      if (next?.done) {
        const headers = new Headers({ "content-type": "application/json" });
        const session = response.headers.get("mcp-session-id");
        if (session) headers.set("mcp-session-id", session);
        return new Response(message, { status: response.status, headers });
      }
      return next ? streamed(response, reader, [first.value, next.value]) : streamed(response, reader, [first.value], reading);
    }
    return streamed(response, reader, [first.value]);
  }
  if (first?.done) return new Response(null, { status: response.status, headers: response.headers });
  return streamed(response, reader, [], pending);
}

/** The read's result if it settles within `ms` (and the host is still there), else null. */
function within<T>(read: Promise<T>, ms: number, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", gone);
    };
    const gone = () => {
      done();
      resolve(null);
    };
    const timer = setTimeout(gone, ms);
    signal.addEventListener("abort", gone, { once: true });
    read.then(
      (value) => {
        done();
        resolve(value);
      },
      (err: unknown) => {
        done();
        reject(err);
      },
    );
  });
}

const decoder = new TextDecoder();
const PREFIX = "event: message\ndata: ";

/** The JSON text of a JSON-RPC response if the chunk is exactly one SDK-written event carrying one; else null. */
function answerIn(chunk: Uint8Array): string | null {
  const text = decoder.decode(chunk);
  if (!text.startsWith(PREFIX) || !text.endsWith("\n\n")) return null;
  const data = text.slice(PREFIX.length, -2);
  if (data.includes("\n")) return null;
  try {
    const message = JSON.parse(data) as Record<string, unknown> | null;
    return message && typeof message === "object" && "id" in message && ("result" in message || "error" in message) ? data : null;
  } catch {
    return null;
  }
}

/** The same event stream: what was read already, then (after a read still pending) the rest. */
function streamed(response: Response, reader: Reader, read: (Uint8Array | undefined)[], pending?: Promise<ReadableStreamReadResult<Uint8Array>>): Response {
  const queued = read.filter((c): c is Uint8Array => c !== undefined);
  let waiting = pending;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = queued.shift();
      if (chunk) return controller.enqueue(chunk);
      const next = await (waiting ?? reader.read());
      waiting = undefined;
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}
