import { AuthorizationServerMismatchError, IssuerMismatchError, OAuthError, RegistrationRejectedError } from "@modelcontextprotocol/client";
import type { OAuthExchange, OAuthStepId } from "./oauth-trace-types";

/** The words for "no way to identify the console to this authorization server". */
export const NO_CLIENT_IDENTITY =
  "This authorization server offers neither registration nor client metadata documents: enter a client ID (and secret, if it gave you one) in the server's settings.";

const TOKEN_ERRORS: Record<string, string> = {
  invalid_client:
    "The authorization server did not accept the client (invalid_client): the client ID or secret is wrong, the registration was deleted, or the client authentication method is not one it allows. Re-enter the pre-registered client, or sign in again to register anew.",
  invalid_grant:
    "The authorization server refused the code or refresh token (invalid_grant): it expired, was used already, was revoked, or was issued to another client or redirect URI, or the PKCE verifier does not match. Sign in again.",
  unauthorized_client: "This client may not use this grant type (unauthorized_client): allow authorization_code and refresh_token for the client at the authorization server.",
  unsupported_grant_type: "The authorization server does not support this grant type (unsupported_grant_type).",
  invalid_scope: "The authorization server refused the requested scope (invalid_scope): the scopes the resource asks for are unknown to it or not allowed for this client.",
  invalid_target:
    "The authorization server refused the resource indicator (invalid_target, RFC 8707): it does not know this MCP server as a resource. Register the server's URL as a resource (audience) at the authorization server.",
  invalid_request: "The authorization server found the request malformed (invalid_request); its description below says which parameter.",
  invalid_dpop_proof: "The authorization server refused the DPoP proof (invalid_dpop_proof).",
  use_dpop_nonce: "The authorization server asks for a DPoP nonce (use_dpop_nonce); the client retries with it.",
  server_error: "The authorization server failed internally (server_error): look at its logs.",
  temporarily_unavailable: "The authorization server is temporarily unavailable: try again later.",
  access_denied: "Access was denied at the authorization server: the person declined, or is not allowed to use this client.",
  consent_required: "The authorization server needs the person's consent and could not ask for it.",
  login_required: "The authorization server needs the person to sign in and could not ask.",
  invalid_redirect_uri: "The authorization server refused the console's redirect URI (invalid_redirect_uri): allow the console's callback URL for this client.",
  invalid_client_metadata: "The authorization server refused the client's registration metadata (invalid_client_metadata); its description below says which field.",
  insufficient_scope: "The token lacks a scope the server needs (insufficient_scope): sign in again to consent to the larger scope.",
};

/** Plain words for an OAuth error code (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707), with the server's own description. */
export function explainOAuthErrorCode(code: string, description?: string | null): string {
  const text = TOKEN_ERRORS[code] ?? `The authorization server answered with the error "${code}".`;
  return description ? `${text} It said: “${description}”` : text;
}

/** The OAuth error in a recorded answer, if it is one. */
export function oauthErrorOf(exchange: OAuthExchange | undefined): { code: string; description: string | null } | null {
  const body = exchange?.responseBody;
  if (body?.kind !== "json" || !body.value || typeof body.value !== "object") return null;
  const { error, error_description } = body.value as { error?: unknown; error_description?: unknown };
  return typeof error === "string" ? { code: error, description: typeof error_description === "string" ? error_description : null } : null;
}

/** Plain words for a failed exchange: the OAuth error it carries, or its HTTP status, or why no answer came. */
export function explainExchange(exchange: OAuthExchange): string {
  if (exchange.error) return `No answer from ${exchange.url}: ${exchange.error}.`;
  const oauth = oauthErrorOf(exchange);
  if (oauth) return explainOAuthErrorCode(oauth.code, oauth.description);
  if (exchange.status === 401 || exchange.status === 403) return `${exchange.url} answered HTTP ${exchange.status}: it needs credentials the console does not have (an initial access token for registration, or client authentication).`;
  return `${exchange.url} answered HTTP ${exchange.status}.`;
}

/** The step an error from the SDK's auth flow belongs to, and what to tell the person. */
export function diagnoseAuthError(err: unknown): { step: OAuthStepId | null; text: string } {
  const cause = rootCause(err);
  const message = cause instanceof Error ? cause.message : String(cause);
  if (cause instanceof IssuerMismatchError && cause.kind === "metadata") return { step: "as-metadata", text: issuerMismatch(cause.expected, cause.received) };
  if (cause instanceof IssuerMismatchError || cause instanceof AuthorizationServerMismatchError) {
    return {
      step: "callback",
      text: `The answer came from another authorization server than the one the sign-in started with (RFC 9207 mix-up defence): ${message}. Start signing in again; if it repeats, the authorization server's iss parameter does not match its metadata's issuer.`,
    };
  }
  if (cause instanceof RegistrationRejectedError) {
    const code = /"error"\s*:\s*"([^"]+)"/.exec(cause.body)?.[1];
    return { step: "client", text: code ? explainOAuthErrorCode(code) : `The registration endpoint refused to register the console (HTTP ${cause.status}).` };
  }
  if (cause instanceof OAuthError) return { step: "token", text: explainOAuthErrorCode(cause.code, cause.message !== cause.code ? cause.message : null) };
  const mismatch = /Protected resource (\S+) does not match expected (\S+)/.exec(message);
  if (mismatch) return { step: "resource-metadata", text: resourceMismatch(mismatch[1]!, mismatch[2]!) };
  if (/does not support dynamic client registration/.test(message)) return { step: "client", text: NO_CLIENT_IDENTITY };
  if (/code challenge method/.test(message)) return { step: "as-metadata", text: NO_S256 };
  if (/does not support response type/.test(message)) return { step: "as-metadata", text: "The authorization server does not offer the authorization code flow (response_types_supported lacks “code”), which MCP requires." };
  return { step: null, text: message };
}

export const NO_S256 =
  "The authorization server does not list S256 in code_challenge_methods_supported. MCP requires PKCE with S256, and clients refuse to go on without it: add S256 to the metadata (and support it).";

export function issuerMismatch(expected: string | undefined, received: string | undefined): string {
  return `The authorization server's metadata says its issuer is “${received ?? "(none)"}”, but it was reached as “${expected ?? "(unknown)"}”. RFC 8414 requires the two to be identical, and clients reject the metadata otherwise (it defends against mix-up attacks): publish issuer exactly as “${expected}”, or list the real issuer URL in the resource metadata's authorization_servers.`;
}

export function resourceMismatch(found: string, expected: string): string {
  return `The Protected Resource Metadata says it protects “${found}”, but this server's URL is “${expected}”. Clients refuse to ask for tokens for another resource: set resource to “${expected}” (or to its origin).`;
}

function rootCause(err: unknown): unknown {
  let current = err;
  for (let i = 0; i < 5 && current instanceof Error && current.cause !== undefined && !(current instanceof OAuthError); i++) current = current.cause;
  return current;
}
