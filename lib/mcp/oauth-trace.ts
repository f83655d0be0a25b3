import type { FetchLike } from "@modelcontextprotocol/client";
import { RE2JS } from "re2js";
import { OAUTH_SECRET_FIELDS, OAUTH_SECRET_HEADERS, REDACTED, redact, redactionMatcher } from "@/lib/core/redaction";
import type { OAuthBody, OAuthExchange, OAuthParam } from "./oauth-trace-types";

const BODY_CAP = 16 * 1024;
const SECRET_HEADER = redactionMatcher(OAUTH_SECRET_HEADERS);
// Requests may carry a server's configured headers (write-only values): only these are shown.
const SHOWN_REQUEST_HEADERS = new Set(["accept", "accept-encoding", "accept-language", "cache-control", "content-length", "content-type", "mcp-protocol-version", "pragma", "user-agent"]);
const SECRET_FIELD = redactionMatcher(OAUTH_SECRET_FIELDS, { exact: true });
// Bearer tokens and assertions in places no field name announces them. RE2 (linear): JavaScript's
// engine retried from every "eyJ" of a long word, 0.4 s for 16 KiB of a server's "eyJeyJ…".
const JWT = RE2JS.compile("eyJ[\\w-]{4,}\\.[\\w-]+\\.[\\w-]*");
const withoutJwts = (text: string) => JWT.matcher(text).replaceAll(REDACTED);
const FORM_SECRET = new RegExp(`\\b(${OAUTH_SECRET_FIELDS.join("|")})=[^&\\s"']+`, "g");

/** Which OAuth step an HTTP exchange belongs to; null for anything else (MCP traffic). */
type ExchangeKind = "resource-metadata" | "as-metadata" | "registration" | "token" | "refresh" | "revocation";

export interface RecordedExchange {
  /** "other": a request recorded only because the recorder records everything. */
  kind: ExchangeKind | "other";
  exchange: OAuthExchange;
}

export interface OAuthRecorder {
  fetch: FetchLike;
  exchanges: RecordedExchange[];
}

/**
 * A fetch for the SDK's `auth()` and discovery functions that records every OAuth exchange
 * (discovery, registration, token, refresh) with secrets redacted and bodies cut at 16 KiB.
 * Other requests (the MCP traffic of a connection using the same fetch) pass through unrecorded,
 * unless `all` is set.
 */
export function createOAuthRecorder(opts: { base?: FetchLike; all?: boolean; onExchange?: (recorded: RecordedExchange) => void | Promise<void> } = {}): OAuthRecorder {
  const base = opts.base ?? fetch;
  const recorder: OAuthRecorder = {
    exchanges: [],
    fetch: async (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const method = (init?.method ?? "GET").toUpperCase();
      const requestHeaders = new Headers(init?.headers);
      const kind = classify(url, method, init?.body, requestHeaders);
      if (!kind && !opts.all) return base(input, init);
      const started = Date.now();
      const exchange: OAuthExchange = {
        method,
        url: redactUrl(url),
        requestHeaders: redactHeaders(requestHeaders, SHOWN_REQUEST_HEADERS),
        requestBody: recordRequestBody(init?.body),
        status: null,
        responseHeaders: {},
        responseBody: null,
        error: null,
        durationMs: 0,
      };
      const recorded: RecordedExchange = { kind: kind ?? "other", exchange };
      try {
        const response = await base(input, init);
        exchange.status = response.status;
        exchange.responseHeaders = redactHeaders(response.headers);
        // Recording never changes what the SDK gets, even for a body it cannot walk.
        exchange.responseBody = await recordResponseBody(response.clone()).catch(() => ({ kind: "text" as const, value: "(not recordable)", truncated: false }));
        return response;
      } catch (err) {
        exchange.error = err instanceof Error ? err.message : String(err);
        throw err;
      } finally {
        exchange.durationMs = Date.now() - started;
        recorder.exchanges.push(recorded);
        await opts.onExchange?.(recorded);
      }
    },
  };
  return recorder;
}

function classify(url: URL, method: string, body: unknown, headers: Headers): ExchangeKind | null {
  if (url.pathname.includes("/.well-known/oauth-protected-resource")) return "resource-metadata";
  if (url.pathname.includes("/.well-known/oauth-authorization-server") || url.pathname.includes("/.well-known/openid-configuration")) return "as-metadata";
  if (method !== "POST") return null;
  const text = body instanceof URLSearchParams ? body.toString() : typeof body === "string" ? body : "";
  const isForm = body instanceof URLSearchParams || /x-www-form-urlencoded/i.test(headers.get("content-type") ?? "");
  const form = new URLSearchParams(isForm ? text : "");
  const grant = form.get("grant_type");
  if (grant === "refresh_token") return "refresh";
  if (grant) return "token";
  if (form.has("token")) return "revocation";
  if (text.startsWith("{") && text.includes('"redirect_uris"') && !text.includes('"jsonrpc"')) return "registration";
  return null;
}

/** A URL with its secret query parameters (code, state, …) masked. */
export function redactUrl(url: URL | string): string {
  const copy = new URL(String(url));
  for (const name of [...copy.searchParams.keys()]) if (SECRET_FIELD(name)) copy.searchParams.set(name, REDACTED);
  return withoutJwts(copy.href);
}

function redactHeaders(headers: Headers, shown?: Set<string>): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = SECRET_HEADER(name) || (shown && !shown.has(name)) ? REDACTED : name === "location" ? safeLocation(value) : withoutJwts(value);
  });
  return out;
}

function safeLocation(value: string): string {
  try {
    return redactUrl(new URL(value, "http://relative.invalid")).replace("http://relative.invalid", "");
  } catch {
    return REDACTED;
  }
}

function recordRequestBody(body: unknown): OAuthBody | null {
  if (body === undefined || body === null) return null;
  if (body instanceof URLSearchParams) return formBody(body);
  if (typeof body !== "string") return { kind: "text", value: "(streamed body)", truncated: false };
  return parseBody(body, body.trimStart().startsWith("{") ? "application/json" : "application/x-www-form-urlencoded", false);
}

async function recordResponseBody(response: Response): Promise<OAuthBody | null> {
  const reader = response.body?.getReader();
  if (!reader) return null;
  const decoder = new TextDecoder();
  let text = "";
  let truncated = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.length > BODY_CAP) {
        truncated = true;
        break;
      }
    }
  } catch {
    // A body cut short is still worth showing.
  } finally {
    reader.cancel().catch(() => {});
  }
  if (!text) return null;
  return parseBody(truncated ? text.slice(0, BODY_CAP) : text, response.headers.get("content-type") ?? "", truncated);
}

function parseBody(text: string, contentType: string, truncated: boolean): OAuthBody {
  if (!truncated && /json/i.test(contentType)) {
    try {
      return { kind: "json", value: maskJwts(redact(JSON.parse(text) as unknown, OAUTH_SECRET_FIELDS, { exact: true }).value) };
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  if (!truncated && /x-www-form-urlencoded/i.test(contentType)) return formBody(new URLSearchParams(text));
  return { kind: "text", value: withoutJwts(text.replace(FORM_SECRET, `$1=${REDACTED}`)), truncated };
}

function formBody(params: URLSearchParams): OAuthBody {
  const value: Record<string, string> = {};
  for (const [name, v] of params) value[name] = SECRET_FIELD(name) ? REDACTED : withoutJwts(v);
  return { kind: "form", value };
}

function maskJwts(value: unknown): unknown {
  if (typeof value === "string") return withoutJwts(value);
  if (Array.isArray(value)) return value.map(maskJwts);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskJwts(v)]));
  return value;
}

const PARAM_NOTES: Record<string, string> = {
  response_type: "“code”: the authorization code flow, the only one OAuth 2.1 keeps",
  client_id: "who the console is to this authorization server",
  redirect_uri: "where the browser comes back: the console's callback, registered with the client",
  code_challenge: "PKCE: a hash of a secret only the console knows; the token request must prove it",
  code_challenge_method: "PKCE method; MCP requires S256",
  scope: "what access is asked for (from the 401 challenge, else the resource's scopes_supported)",
  resource: "RFC 8707: the MCP server the token is for; the token's audience",
  state: "binds the answer to this sign-in by this person (masked here)",
  prompt: "asks the authorization server to show consent again",
};

/** The parameters of an authorization URL, each with what it is for; secrets masked. */
export function explainAuthorizationUrl(url: string): OAuthParam[] {
  const parsed = new URL(url);
  return [...parsed.searchParams].map(([name, value]) => ({
    name,
    value: SECRET_FIELD(name) ? REDACTED : value,
    note: PARAM_NOTES[name] ?? "",
  }));
}
