import { withWorkspace } from "@/lib/api/route";
import { subscribe } from "@/lib/events/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/v1/events – server status, list_changed and resource events for the workspace (SSE)
export const GET = withWorkspace(async ({ request, principal }) => {
  const encoder = new TextEncoder();
  let cleanup = () => undefined as void;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      send("retry: 3000\n\n");
      const unsubscribe = subscribe(principal.workspaceId, (event) => send(`data: ${JSON.stringify(event)}\n\n`));
      const keepAlive = setInterval(() => send(": keep-alive\n\n"), 25_000);
      cleanup = () => {
        clearInterval(keepAlive);
        unsubscribe();
      };
      request.signal.addEventListener("abort", () => {
        cleanup();
        controller.close();
      });
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" } });
});
