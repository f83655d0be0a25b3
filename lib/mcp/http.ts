import type { FetchLike } from "@modelcontextprotocol/client";
import { McpError } from "./errors";
import type { OutboundFetchLike } from "./types";

const EXCERPT_CHARS = 500;

/** What the server said when an HTTP request failed; the SDK's errors drop most of it. */
export interface HttpFailure {
  method: string;
  status: number;
  statusText: string;
  wwwAuthenticate: string | null;
  contentType: string | null;
  bodyExcerpt: string;
}

/** The fetch given to the SDK transports for one session, and what it saw. */
export interface HttpRecorder {
  fetch: FetchLike;
  lastFailure: HttpFailure | null;
  /** Whether a request went to a host inside a network: then nothing it answered is quoted. */
  internal: boolean;
}

/**
 * Wraps fetch to remember the last failed response (status, WWW-Authenticate, body excerpt) and
 * to check JSON answers to requests before the SDK sees them: a malformed body becomes an
 * explained McpError that fails only the request it answered. Bodies from a host inside a
 * network (`baseFetch.isInternal`) are never kept for error messages.
 */
export function createHttpRecorder(baseFetch: OutboundFetchLike = fetch): HttpRecorder {
  const recorder: HttpRecorder = {
    lastFailure: null,
    internal: false,
    fetch: async (url, init) => {
      const response = await baseFetch(url, init);
      const method = init?.method ?? "GET";
      const quiet = baseFetch.isInternal?.(url) ?? false;
      recorder.internal ||= quiet;
      if (!response.ok && response.status !== 304) {
        recorder.lastFailure = await describeFailure(method, response, quiet && !(baseFetch.quotesOwnRefusal?.(url, response.status) ?? false));
        return response;
      }
      if (method === "POST" && isJson(response.headers.get("content-type"))) return checkedJsonResponse(response, quiet, init?.body);
      return response;
    },
  };
  return recorder;
}

async function describeFailure(method: string, response: Response, quiet: boolean): Promise<HttpFailure> {
  return {
    method,
    status: response.status,
    statusText: response.statusText,
    wwwAuthenticate: response.headers.get("www-authenticate"),
    contentType: response.headers.get("content-type"),
    bodyExcerpt: quiet ? "" : await readExcerpt(response.clone()),
  };
}

async function readExcerpt(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < EXCERPT_CHARS) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // A body cut short still leaves a useful excerpt.
  } finally {
    reader.cancel().catch(() => {});
  }
  return text.slice(0, EXCERPT_CHARS);
}

function isJson(contentType: string | null): boolean {
  const essence = contentType?.split(";")[0]?.trim().toLowerCase();
  return essence === "application/json" || (essence?.endsWith("+json") ?? false);
}

function carriesRequest(body: unknown): boolean {
  if (typeof body !== "string") return false;
  try {
    const parsed: unknown = JSON.parse(body);
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages.some((m) => isObject(m) && typeof m.method === "string" && m.id !== undefined);
  } catch {
    return false;
  }
}

/**
 * Parses a JSON answer once: a malformed one to a request fails that request (the body is parsed
 * only then, to tell); a good one reaches the SDK already parsed (its json() is this parse).
 */
async function checkedJsonResponse(response: Response, quiet: boolean, body: unknown): Promise<Response> {
  const text = await response.text();
  const excerpt = quiet ? {} : { bodyExcerpt: text.slice(0, EXCERPT_CHARS) };
  const rebuilt = () => new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    if (!carriesRequest(body)) return rebuilt();
    // V8's parse message quotes the body.
    throw new McpError("protocol", quiet ? "Server sent malformed JSON" : `Server sent malformed JSON (${(err as Error).message})`, {
      code: -32700,
      ...excerpt,
      cause: err,
    });
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (messages.length === 0 || !messages.every(isJsonRpcMessage)) {
    if (!carriesRequest(body)) return rebuilt();
    throw new McpError("protocol", "Server answered with JSON that is not a JSON-RPC 2.0 message", { code: -32600, ...excerpt });
  }
  const checked = rebuilt();
  Object.defineProperty(checked, "json", { value: () => Promise.resolve(parsed) });
  return checked;
}

function isJsonRpcMessage(value: unknown): boolean {
  return isObject(value) && value.jsonrpc === "2.0" && ("id" in value || "method" in value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
