import "server-only";
import type { RequestHead } from "@/lib/core/access";
import { eventsSince, subscribe } from "./bus";
import type { WorkspaceEvent } from "./index";

const KEEP_ALIVE_MS = 25_000;

interface EventStreamOptions {
  request: RequestHead;
  workspaceId: string;
  /** Only events that pass are sent (a per-session stream); ids stay the workspace's. */
  filter?: (event: WorkspaceEvent) => boolean;
}

/**
 * An SSE response carrying a workspace's live events, each with an `id:` line. A reconnect that
 * sends `Last-Event-ID` (EventSource does so by itself; `?lastEventId=` works too) first gets
 * every buffered event after that id, in order and without duplicates, or a `reset` event when
 * the buffer no longer reaches back that far (the client then refetches what it shows).
 */
export function eventStreamResponse({ request, workspaceId, filter = () => true }: EventStreamOptions): Response {
  const encoder = new TextEncoder();
  const lastEventId = request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("lastEventId");
  let cleanup = () => undefined as void;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const send = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          open = false;
        }
      };
      const sendEvent = (event: WorkspaceEvent, id: string | null) => {
        if (filter(event)) send(`${id ? `id: ${id}\n` : ""}data: ${JSON.stringify(event)}\n\n`);
      };
      send("retry: 3000\n\n");
      // Replay and subscribe in the same tick: nothing is published in between.
      if (lastEventId) {
        const missed = eventsSince(workspaceId, lastEventId);
        if (missed.kind === "reset") sendEvent({ type: "reset" }, null);
        else for (const stamped of missed.events) sendEvent(stamped.event, stamped.id);
      }
      const unsubscribe = subscribe(workspaceId, (event, id) => sendEvent(event, id));
      const keepAlive = setInterval(() => send(": keep-alive\n\n"), KEEP_ALIVE_MS);
      cleanup = () => {
        open = false;
        clearInterval(keepAlive);
        unsubscribe();
      };
      request.signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // Already closed.
        }
      });
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive", "x-accel-buffering": "no" },
  });
}
