import "server-only";
import { readBodyText } from "@/lib/api/body";
import { SwitchboardError } from "@/lib/errors";
import { challenge, GatewayAuthError } from "./auth";

const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface Body {
  text: string;
  parsed: unknown;
}

/**
 * Answers what a gateway endpoint throws: a refused credential with the challenge that sends a
 * host to sign in, our own errors in the API's shape, anything else 500 (logged).
 */
export async function answering(resource: string, serve: () => Promise<Response>): Promise<Response> {
  try {
    return await serve();
  } catch (err) {
    if (err instanceof GatewayAuthError) {
      const headers = { "www-authenticate": challenge(resource, err.error) };
      return Response.json({ error: { code: err.status === 401 ? "unauthorized" : "forbidden", message: err.message } }, { status: err.status, headers });
    }
    if (err instanceof SwitchboardError) return Response.json(err.toBody(), { status: err.status });
    console.error("[gateway] unexpected error", err);
    return jsonError(500, "internal", "Internal error; see the console's log");
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
