import { describe, expect, it } from "vitest";
import { jsonWhenQuick } from "@/lib/gateway/passthrough/json-answer";

const encoder = new TextEncoder();
const event = (message: unknown, id?: string) => encoder.encode(`event: message\n${id ? `id: ${id}\n` : ""}data: ${JSON.stringify(message)}\n\n`);
const answer = { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "Echo: hi" }] } };
const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } };

/** An SSE answer as the SDK's server transport makes one; `later` enqueues more once the caller has the Response. */
function sse(chunks: Uint8Array[], { close = true } = {}) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      for (const chunk of chunks) c.enqueue(chunk);
      if (close) c.close();
    },
  });
  const response = new Response(body, { status: 200, headers: { "content-type": "text/event-stream", "mcp-session-id": "s-1" } });
  return { response, later: (chunk: Uint8Array) => controller.enqueue(chunk), end: () => controller.close() };
}

const live = new AbortController().signal;

describe("jsonWhenQuick: a relayed session's answer as JSON when it is the only event", () => {
  it("gives a quick lone answer as JSON, with the session id", async () => {
    const out = await jsonWhenQuick(sse([event(answer)]).response, live);
    expect(out.headers.get("content-type")).toBe("application/json");
    expect(out.headers.get("mcp-session-id")).toBe("s-1");
    expect(await out.json()).toEqual(answer);
  });

  it("streams unchanged what has an event before the answer (progress)", async () => {
    const out = await jsonWhenQuick(sse([event(progress), event(answer)]).response, live);
    expect(out.headers.get("content-type")).toBe("text/event-stream");
    expect(await out.text()).toBe(new TextDecoder().decode(new Uint8Array([...event(progress), ...event(answer)])));
  });

  it("streams an answer with an event id (a resumable stream)", async () => {
    const out = await jsonWhenQuick(sse([event(answer, "e-1")]).response, live);
    expect(out.headers.get("content-type")).toBe("text/event-stream");
    expect(await out.text()).toContain("id: e-1");
  });

  it("streams an answer slower than the wait, sending headers first", async () => {
    const slow = sse([], { close: false });
    const out = await jsonWhenQuick(slow.response, live, 5);
    expect(out.headers.get("content-type")).toBe("text/event-stream");
    slow.later(event(progress));
    slow.later(event(answer));
    slow.end();
    const text = await out.text();
    expect(text.indexOf("notifications/progress")).toBeLessThan(text.indexOf("Echo: hi"));
  });

  it("streams an answer whose stream stays open after it", async () => {
    const open = sse([event(answer)], { close: false });
    const pending = jsonWhenQuick(open.response, live);
    open.later(event(progress));
    const out = await pending;
    open.end();
    expect(out.headers.get("content-type")).toBe("text/event-stream");
    const text = await out.text();
    expect(text).toContain("Echo: hi");
    expect(text).toContain("notifications/progress");
  });

  it("streams an answer whose stream stays open and quiet after it, once the wait is over", async () => {
    const quiet = sse([event(answer)], { close: false });
    const out = await jsonWhenQuick(quiet.response, live, 5);
    expect(out.headers.get("content-type")).toBe("text/event-stream");
    quiet.end();
    expect(await out.text()).toContain("Echo: hi");
  });

  it("leaves JSON answers and other responses alone", async () => {
    const json = Response.json(answer);
    expect(await jsonWhenQuick(json, live)).toBe(json);
    const accepted = new Response(null, { status: 202 });
    expect(await jsonWhenQuick(accepted, live)).toBe(accepted);
  });
});
