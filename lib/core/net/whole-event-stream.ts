import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createParser } from "eventsource-parser";

// A server that sent its answer but has not ended the stream yet is read as a stream after all.
const END_GRACE_MS = 20;

/**
 * An MCP server's event-stream answer to a POST, as the JSON text of its messages when the whole
 * stream arrived with the answer (a JSON-RPC response) and nothing the caller needed earlier: the
 * usual case for a quick request, which the SDK then reads without its web-stream SSE pipeline
 * (a decoder, a parser and a reader per request). Priming events (an id, no data) are waited
 * past: they only matter if the stream breaks, and then the caller gets them, and the break, as a
 * stream. Null, with the body left unread, whenever the rest has to be read as a stream: a message
 * before the answer (progress, a server request awaiting its reply), a `retry` field, an event
 * that is not a JSON-RPC message, an answer with the stream kept open. A stream that ended
 * without an answer comes back as its bytes.
 */
export function wholeEventStream(body: Readable): Promise<{ json: string } | { body: BodyInit } | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const decoder = new StringDecoder("utf8");
    const messages: string[] = [];
    let answered = false;
    let streamed = false;
    let grace: NodeJS.Timeout | null = null;
    const parser = createParser({
      onEvent(event) {
        if (!event.data) return;
        if (event.event && event.event !== "message") return void (streamed = true);
        const message = parseMessage(event.data);
        if (!message) return void (streamed = true);
        messages.push(event.data);
        if ("id" in message && ("result" in message || "error" in message)) answered = true;
      },
      onRetry: () => void (streamed = true),
      onError: () => void (streamed = true),
    });
    const detach = () => {
      body.off("data", onData).off("end", onEnd).off("error", onError);
      if (grace) clearTimeout(grace);
    };
    const giveBack = () => {
      detach();
      body.pause();
      for (let i = chunks.length - 1; i >= 0; i--) body.unshift(chunks[i]);
      resolve(null);
    };
    function onData(chunk: Buffer) {
      chunks.push(chunk);
      parser.feed(decoder.write(chunk));
      // A message that came without the answer is delivered now: it may be a request awaiting a reply.
      if (streamed || (messages.length && !answered)) return giveBack();
      if (answered) grace ??= setTimeout(giveBack, END_GRACE_MS);
    }
    function onEnd() {
      detach();
      parser.feed(decoder.end());
      parser.reset({ consume: true });
      if (streamed || !answered) return resolve({ body: new Uint8Array(Buffer.concat(chunks)) as Uint8Array<ArrayBuffer> });
      resolve({ json: messages.length === 1 ? messages[0]! : `[${messages.join(",")}]` });
    }
    // What arrived, then the same failure, as the caller would have read it (the SDK resumes from the last event id).
    function onError(err: Error) {
      detach();
      const bytes = Buffer.concat(chunks);
      resolve({
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            if (bytes.length) controller.enqueue(new Uint8Array(bytes) as Uint8Array<ArrayBuffer>);
          },
          // Called once what arrived has been read: erroring sooner would discard it.
          pull(controller) {
            controller.error(err);
          },
        }),
      });
    }
    body.on("data", onData).once("end", onEnd).once("error", onError);
  });
}

function parseMessage(data: string): Record<string, unknown> | null {
  try {
    const message: unknown = JSON.parse(data);
    return message && typeof message === "object" && !Array.isArray(message) && (message as { jsonrpc?: unknown }).jsonrpc === "2.0" ? (message as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
