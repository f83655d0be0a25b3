import { STATUS_CODES } from "node:http";
import { Readable } from "node:stream";
import { request, type Dispatcher } from "undici";
import { wholeEventStream } from "./whole-event-stream";

/**
 * Whether a request can skip fetch: what the MCP SDK's transports send (a string body or none,
 * redirects left to the caller). Anything else — OAuth's form bodies, followed redirects — takes fetch.
 */
export function leanEligible(init: RequestInit | undefined): boolean {
  return init?.redirect === "manual" && (init.body === undefined || init.body === null || typeof init.body === "string");
}

/**
 * The request through undici's dispatcher API instead of fetch: no Request object, and the abort
 * listener is removed when the request ends. The SDK gives every request its transport's lifelong
 * signal, on which fetch leaves a listener until garbage collection (thousands under load, each
 * addition scanning the rest). A JSON answer is read whole (the SDK reads it whole anyway), and
 * so is an event stream that arrives whole with its answer, handed on as that answer's JSON;
 * anything else streams.
 */
export async function leanFetch(url: string | URL, init: RequestInit, dispatcher: Dispatcher): Promise<Response> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  const res = await request(String(url), {
    method: (init.method ?? "GET") as Dispatcher.HttpMethod,
    headers,
    body: (init.body as string | null | undefined) ?? null,
    signal: init.signal ?? undefined,
    dispatcher,
  });
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, one);
  }
  const status = res.statusCode;
  const meta = { status, statusText: STATUS_CODES[status] ?? "", headers: responseHeaders };
  const type = responseHeaders.get("content-type") ?? "";
  let response: Response;
  let whole: Awaited<ReturnType<typeof wholeEventStream>> = null;
  if (status === 204 || status === 205 || status === 304 || init.method === "HEAD" || res.headers["content-length"] === "0") {
    await res.body.dump();
    response = new Response(null, meta);
  } else if (/^application\/(.+\+)?json\b/i.test(type)) {
    response = new Response(await res.body.text(), meta);
  } else if (status === 200 && init.method === "POST" && /^text\/event-stream\b/i.test(type) && (whole = await wholeEventStream(res.body))) {
    if ("json" in whole) responseHeaders.set("content-type", "application/json");
    response = new Response("json" in whole ? whole.json : whole.body, meta);
  } else {
    response = new Response(Readable.toWeb(res.body) as ReadableStream<Uint8Array>, meta);
  }
  Object.defineProperty(response, "url", { value: String(url) });
  return response;
}
