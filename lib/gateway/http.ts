import "server-only";
import { readBodyText } from "@/lib/api/body";
import { Reply, type ApiRequest } from "@/lib/api/reply";
import { errorResponse } from "@/lib/api/route";
import type { RequestHead } from "@/lib/core/access";
import { SERVER_TIMING_HEADER, type Timing } from "@/lib/core/timing";
import { SwitchboardError } from "@/lib/core/errors";
import { challenge, GatewayAuthError } from "./auth";

const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface Body {
  text: string;
  parsed: unknown;
}

/**
 * Answers what a gateway endpoint throws through the API's one converter (lib/api/route.ts
 * `errorResponse`: our errors in their shape, a database fault as 503 with Retry-After, anything
 * else 500, logged); a refused credential adds the challenge that sends a host to sign in.
 */
export async function answering(resource: string, serve: () => Promise<Response>): Promise<Response> {
  try {
    return await serve();
  } catch (err) {
    if (!(err instanceof GatewayAuthError)) return errorResponse(err);
    const response = errorResponse(new SwitchboardError(err.status === 401 ? "unauthorized" : "forbidden", err.message));
    response.headers.set("www-authenticate", challenge(resource, err.error));
    return response;
  }
}

/** `answering` for an endpoint's front (the pipeline's request, a Reply); the resource is named only on a refusal. */
export async function answeringReply(resource: () => string, serve: () => Promise<Reply>): Promise<Reply> {
  try {
    return await serve();
  } catch (err) {
    return Reply.from(await answering(resource(), () => Promise.reject(err)));
  }
}

/** The request as the SDK's handlers take it (a Fetch Request); `text`: its body, when read already. */
export function fetchRequestOf(request: ApiRequest, text?: string): Request {
  if (request instanceof Request && text === undefined) return request;
  const init: RequestInit = { method: request.method, headers: request.headers, signal: request.signal };
  if (text !== undefined) init.body = text;
  else if (request.bufferedBody) init.body = new Uint8Array(request.bufferedBody);
  return new Request(request.url, init);
}

/**
 * The answer with its `Server-Timing` (lib/core/timing): the stages measured by then. An event
 * stream's headers leave before its answer, so its header has the stages known at that moment.
 */
export function timed(reply: Reply, timing: Timing): Reply {
  return reply.headers[SERVER_TIMING_HEADER] ? reply : reply.withHeader(SERVER_TIMING_HEADER, timing.header());
}

/** Without a credential nothing is told, not even whether the endpoint exists. */
export function requireBearer(request: RequestHead): void {
  if (!/^bearer /i.test(request.headers.get("authorization") ?? "")) throw new GatewayAuthError(401, null, "This endpoint needs a bearer token: sign in with OAuth, or an API token with the gateway scope");
}

export async function readBody(request: ApiRequest): Promise<Body> {
  const text = await readBodyText(request, MAX_BODY_BYTES);
  try {
    return { text, parsed: JSON.parse(text) };
  } catch {
    return { text, parsed: undefined };
  }
}

export function isInitialize(message: unknown): boolean {
  const one = Array.isArray(message) ? message : [message];
  return one.some((m) => (m as { method?: unknown } | null)?.method === "initialize");
}

export function jsonError(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status });
}

/** A GET that is neither a session's event stream (Streamable HTTP) nor the legacy HTTP+SSE stream: the same answer on every endpoint. */
export function notAllowed(): Response {
  const response = rpcError(405, null, -32600, "Method Not Allowed: POST a JSON-RPC message, or GET with Accept: text/event-stream (with Mcp-Session-Id for a session's stream, without it for the legacy HTTP+SSE transport)");
  response.headers.set("allow", "GET, POST, DELETE");
  return response;
}

export function rpcError(status: number, id: string | number | null, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id, error: { code, message } }, { status });
}
