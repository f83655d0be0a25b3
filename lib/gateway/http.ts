import "server-only";
import { readBodyText } from "@/lib/api/body";
import { errorResponse } from "@/lib/api/route";
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

/** Without a credential nothing is told, not even whether the endpoint exists. */
export function requireBearer(request: Request): void {
  if (!/^bearer /i.test(request.headers.get("authorization") ?? "")) throw new GatewayAuthError(401, null, "This endpoint needs a bearer token: sign in with OAuth, or an API token with the gateway scope");
}

export async function readBody(request: Request): Promise<Body> {
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

export function rpcError(status: number, id: string | number | null, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id, error: { code, message } }, { status });
}
