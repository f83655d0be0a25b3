import {
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type FetchLike,
  type OAuthClientProvider,
  type Transport,
} from "@modelcontextprotocol/client";
import { injectTraceHeaders, tracing } from "@/lib/core/telemetry/context";
import { McpError } from "./errors";
import type { HttpRecorder } from "./http";

export type SessionTransportKind = "streamable-http" | "sse" | "relay" | "memory";

/** Parses the configured endpoint; only http(s) URLs are accepted. */
export function parseEndpoint(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new McpError("unknown", `Not a valid URL: ${url}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new McpError("unknown", `Unsupported URL scheme ${parsed.protocol} (expected http: or https:)`);
  }
  return parsed;
}

/**
 * A transport for one session. Custom headers (and a traced call's `traceparent`) are added by its
 * fetch, and only to requests for the server's own origin: the SDK sends OAuth requests (discovery,
 * token refresh) through the same fetch, and a header saved for the server must never reach the
 * authorization server. Headers the
 * SDK sets itself (session id, a bearer token) win, as they did with requestInit.
 */
export function createHttpTransport(
  kind: "streamable-http" | "sse",
  url: URL,
  headers: Record<string, string>,
  recorder: HttpRecorder,
  authProvider?: OAuthClientProvider,
): Transport {
  const own = Object.keys(headers).length > 0;
  const fetch: FetchLike = (input, init) => {
    if ((!own && !tracing()) || new URL(String(input instanceof Request ? input.url : input)).origin !== url.origin) return recorder.fetch(input, init);
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) if (!merged.has(name)) merged.set(name, value);
    // A traced call's context (lib/mcp/traced-transport.ts) in the W3C headers too.
    injectTraceHeaders(merged);
    return recorder.fetch(input, { ...init, headers: merged });
  };
  const auth = authProvider ? { authProvider } : {};
  if (kind === "sse") return new SSEClientTransport(url, { fetch, ...auth });
  // Step-up is the person's to consent to: a 403 insufficient_scope surfaces instead of re-authorizing here.
  return new StreamableHTTPClientTransport(url, { fetch, ...auth, ...(authProvider ? { onInsufficientScope: "throw" as const } : {}) });
}

/**
 * The server no longer knows the session this request carried: HTTP 404 per spec, or the 400
 * "No valid session ID provided" that SDK v1 servers such as server-everything answer.
 */
export function isSessionGone(err: unknown, transport: Transport): boolean {
  if (!(transport instanceof StreamableHTTPClientTransport) || transport.sessionId === undefined) return false;
  if (!SdkHttpError.isInstance(err)) return false;
  if (err.status === 404) return true;
  const text = typeof err.data.text === "string" ? err.data.text : "";
  return err.status === 400 && /session/i.test(text);
}

/** Sends the session DELETE if there is a session to leave; bounded so a silent server cannot stall close(). */
export async function leaveSession(transport: Transport, timeoutMs: number): Promise<void> {
  if (!(transport instanceof StreamableHTTPClientTransport) || transport.sessionId === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    await Promise.race([transport.terminateSession().catch(() => {}), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
