import type { FetchLike } from "@modelcontextprotocol/client";
import { McpError } from "./errors";

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
}

/**
 * Wraps fetch to remember the last failed response (status, WWW-Authenticate, body excerpt) and
 * to check JSON answers to requests before the SDK sees them: a malformed body becomes an
 * explained McpError that fails only the request it answered.
 */
export function createHttpRecorder(baseFetch: FetchLike = fetch): HttpRecorder {
  const recorder: HttpRecorder = {
    lastFailure: null,
    fetch: async (url, init) => {
      const response = await baseFetch(url, init);
      const method = init?.method ?? "GET";
      if (!response.ok && response.status !== 304) {
        recorder.lastFailure = await describeFailure(method, response);
        return response;
      }
      if (method === "POST" && isJson(response.headers.get("content-type")) && carriesRequest(init?.body)) {
        return checkedJsonResponse(response);
      }
      return response;
    },
  };
  return recorder;
}

async function describeFailure(method: string, response: Response): Promise<HttpFailure> {
  return {
    method,
    status: response.status,
    statusText: response.statusText,
    wwwAuthenticate: response.headers.get("www-authenticate"),
    contentType: response.headers.get("content-type"),
    bodyExcerpt: await readExcerpt(response.clone()),
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

async function checkedJsonResponse(response: Response): Promise<Response> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new McpError("protocol", `Server sent malformed JSON (${(err as Error).message})`, {
      code: -32700,
      bodyExcerpt: text.slice(0, EXCERPT_CHARS),
      cause: err,
    });
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (messages.length === 0 || !messages.every(isJsonRpcMessage)) {
    throw new McpError("protocol", "Server answered with JSON that is not a JSON-RPC 2.0 message", {
      code: -32600,
      bodyExcerpt: text.slice(0, EXCERPT_CHARS),
    });
  }
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function isJsonRpcMessage(value: unknown): boolean {
  return isObject(value) && value.jsonrpc === "2.0" && ("id" in value || "method" in value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
