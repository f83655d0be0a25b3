// Shared by lib/api/bearer-routes.ts (loaded by server.ts) and lib/api/route.ts (inside Next's
// bundles): two module instances, so the marks are registered symbols. No "server-only" here.

/** On a request the direct path made: its body, already read whole (null: none). */
export const BUFFERED_BODY = Symbol.for("switchboard.api.bufferedBody");
/** On a gateway request (a whole Request, for the MCP SDK) the direct path made: its body, read whole, for lib/gateway to parse. */
export const MCP_BODY = Symbol.for("switchboard.mcp.bufferedBody");
/** On what a route answers a direct request with: the JSON reply, not yet a Response. */
export const DIRECT_REPLY = Symbol.for("switchboard.api.directReply");

/** On a request the direct path made: the matrix key of the route file it chose ("GET /api/v1/calls/:id"). */
export const ROUTED_AS = Symbol.for("switchboard.api.routedAs");
/** The response header naming the matrix entry the role gate judged a request by. */
export const ROUTE_HEADER = "x-switchboard-route";

export function routedAs(request: Request): string | undefined {
  return (request as unknown as { [ROUTED_AS]?: string })[ROUTED_AS];
}

export interface DirectReply {
  [DIRECT_REPLY]: { status: number; json: string; headers?: Record<string, string> };
}

/** Whether the request came through the direct path (then a JSON reply need not be a Response). */
export function isDirect(request: Request): boolean {
  return BUFFERED_BODY in request;
}

/** A JSON answer: for the direct path the text and status as they are, for Next a Response. */
export function jsonReply(request: Request | null, body: unknown, status = 200, headers?: Record<string, string>): Response {
  if (request && isDirect(request)) return { [DIRECT_REPLY]: { status, json: JSON.stringify(body), ...(headers ? { headers } : {}) } } as unknown as Response;
  return Response.json(body, { status, headers });
}

/**
 * The members of a Request the API's handlers use (headers, method, url, signal, the body), for
 * a request whose body is already in memory: building undici's Request (and later its body
 * stream) cost more than the rest of the API's HTTP handling.
 */
export class DirectRequest {
  readonly [BUFFERED_BODY]: Buffer | null;

  constructor(
    readonly url: string,
    readonly method: string,
    readonly headers: Headers,
    readonly signal: AbortSignal,
    body: Buffer | null,
  ) {
    this[BUFFERED_BODY] = body;
  }

  get body(): ReadableStream<Uint8Array> | null {
    const body = this[BUFFERED_BODY];
    return body ? new Response(body as unknown as BodyInit).body : null;
  }

  async text(): Promise<string> {
    return this[BUFFERED_BODY]?.toString("utf8") ?? "";
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const body = this[BUFFERED_BODY];
    return body ? (body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer) : new ArrayBuffer(0);
  }
}
