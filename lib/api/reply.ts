import type { ServerResponse } from "node:http";
import type { RequestHead } from "@/lib/core/access";

// Shared by both pipelines (Next's and lib/api/pipeline.ts); no "server-only" here.

/** The response header naming the matrix entry the role gate judged a request by. */
export const ROUTE_HEADER = "x-switchboard-route";

/** What the API's handlers read of a request. A Fetch Request is one; the direct pipeline builds a lighter one. */
export interface ApiRequest extends RequestHead {
  readonly body: ReadableStream<Uint8Array> | null;
  /** The body when the pipeline already read it whole (null: none); absent when it streams. */
  readonly bufferedBody?: Buffer | null;
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * A request whose body is already in memory (or absent): building undici's Request (and later
 * its body stream) cost more than the rest of the API's HTTP handling.
 */
export class BufferedRequest implements ApiRequest {
  constructor(
    readonly url: string,
    readonly method: string,
    readonly headers: Headers,
    readonly signal: AbortSignal,
    readonly bufferedBody: Buffer | null,
  ) {}

  get body(): ReadableStream<Uint8Array> | null {
    const body = this.bufferedBody;
    return body ? new Blob([new Uint8Array(body)]).stream() : null;
  }

  async text(): Promise<string> {
    return this.bufferedBody?.toString("utf8") ?? "";
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return new Uint8Array(this.bufferedBody ?? []).buffer;
  }
}

type RawBody = string | Uint8Array | ReadableStream<Uint8Array> | null;

/**
 * What a route answers, before a pipeline writes it: JSON (the usual), or a raw body (text,
 * bytes, a stream: event streams, exports, pages) with its headers. Next's pipeline renders it
 * as a Response (`toResponse`), the direct one onto the socket (`writeReply`).
 */
export class Reply {
  readonly raw: RawBody | undefined;
  /** The JSON body as text, once rendered (the API's wrapper renders it to time the stage). */
  private json: string | undefined;

  constructor(
    readonly body: unknown,
    readonly status = 200,
    readonly headers: Record<string, string | string[]> = {},
    raw?: RawBody,
  ) {
    this.raw = raw;
  }

  /** A body that is not JSON; `headers` say its content type. */
  static raw(body: RawBody, status = 200, headers: Record<string, string | string[]> = {}): Reply {
    return new Reply(undefined, status, headers, body);
  }

  /** A Fetch Response (the SDK's, another instance's answer), as a Reply. */
  static from(response: Response): Reply {
    const headers: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => name !== "set-cookie" && (headers[name] = value));
    const cookies = response.headers.getSetCookie();
    if (cookies.length) headers["set-cookie"] = cookies;
    return Reply.raw(response.body, response.status, headers);
  }

  withHeader(name: string, value: string): Reply {
    return this.withHeaders({ [name]: value });
  }

  /** A copy with these headers set as well (the JSON rendered, if it was, rides along). */
  withHeaders(headers: Record<string, string>): Reply {
    const reply = new Reply(this.body, this.status, { ...this.headers, ...headers }, this.raw);
    reply.json = this.json;
    return reply;
  }

  /** Renders a JSON body to text now rather than when it is written; the text, or null for a raw body or a 204. */
  render(): string | null {
    if (this.raw !== undefined || this.status === 204) return null;
    return (this.json ??= JSON.stringify(this.body));
  }
}

/** Next's pipeline: the Reply as a Response. */
export function toResponse(reply: Reply): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(reply.headers)) for (const v of [value].flat()) headers.append(name, v);
  if (reply.raw !== undefined) return new Response(reply.raw as BodyInit | null, { status: reply.status, headers });
  if (reply.status === 204) return new Response(null, { status: 204, headers });
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  return new Response(reply.render(), { status: reply.status, headers });
}

/** The direct pipeline: the Reply onto the socket; a stream stops when the client goes away. */
export async function writeReply(reply: Reply, res: ServerResponse, signal: AbortSignal): Promise<void> {
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  if (reply.raw === undefined) {
    if (reply.status === 204) return void res.writeHead(204).end();
    const json = reply.render()!;
    res.writeHead(reply.status, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
    return void res.end(json);
  }
  res.writeHead(reply.status);
  const raw = reply.raw;
  if (raw === null || typeof raw === "string" || raw instanceof Uint8Array) return void res.end(raw ?? undefined);
  const reader = raw.getReader();
  signal.addEventListener("abort", () => void reader.cancel().catch(() => undefined), { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) break;
      if (!res.write(value)) await new Promise((resolve) => res.once("drain", resolve));
    }
  } finally {
    res.end();
  }
}
