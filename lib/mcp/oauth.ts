import { auth } from "@modelcontextprotocol/client";
import { McpError } from "./errors";
import { ConsoleOAuthProvider, type OAuthStore, type PendingAuthorization } from "./oauth-provider";

export type { OAuthStore, OAuthTokenRecord, PendingAuthorization } from "./oauth-provider";

/**
 * Starts an authorization for a person: discovery, client registration (CIMD or DCR when no client
 * is known for the issuer), PKCE and the authorization URL, all by the SDK's `auth()`.
 */
export async function beginAuthorization(input: { store: OAuthStore; serverUrl: string; state: string; scope?: string }): Promise<PendingAuthorization> {
  const provider = new ConsoleOAuthProvider(input.store, input.serverUrl, input.state);
  try {
    await auth(provider, { serverUrl: input.serverUrl, forceReauthorization: true, ...(input.scope ? { scope: input.scope } : {}) });
  } catch (err) {
    throw oauthFailure("Could not start signing in", err);
  }
  const pending = provider.pending();
  if (!pending) throw new McpError("unauthorized", "The authorization server did not ask for a sign-in");
  return pending;
}

/** Redeems the authorization code the browser brought back; the tokens land in the store. */
export async function finishAuthorization(input: {
  store: OAuthStore;
  serverUrl: string;
  code: string;
  iss?: string;
  pending: Pick<PendingAuthorization, "codeVerifier" | "discovery" | "client">;
}): Promise<void> {
  const provider = new ConsoleOAuthProvider(input.store, input.serverUrl, undefined, input.pending);
  try {
    const result = await auth(provider, { serverUrl: input.serverUrl, authorizationCode: input.code, ...(input.iss ? { iss: input.iss } : {}) });
    if (result !== "AUTHORIZED") throw new Error(`unexpected result ${result}`);
  } catch (err) {
    throw oauthFailure("Could not finish signing in", err);
  }
}

/**
 * RFC 7009: revokes the refresh token (which ends the grant and its access tokens at most servers),
 * or the access token when there is no refresh token, at the authorization server's revocation
 * endpoint when it offers one. Returns whether a token was revoked; a refusal throws, and the
 * caller deletes the tokens anyway.
 */
export async function revokeTokens(store: OAuthStore): Promise<boolean> {
  const record = await store.tokens();
  const metadata = record?.discovery?.authorizationServerMetadata as { revocation_endpoint?: string } | undefined;
  const endpoint = metadata?.revocation_endpoint;
  if (!record || !endpoint) return false;
  const client = record.client ?? (await store.client(record.issuer ?? undefined));
  if (!client) return false;
  const [token, hint] = record.tokens.refresh_token ? [record.tokens.refresh_token, "refresh_token"] : [record.tokens.access_token, "access_token"];
  const body = new URLSearchParams({ token, token_type_hint: hint });
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (client.client_secret) {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString("base64")}`;
  } else {
    body.set("client_id", client.client_id);
  }
  const response = await fetch(endpoint, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
  if (response.ok) return true;
  const error = ((await response.json().catch(() => null)) as { error?: string } | null)?.error;
  // A server that cannot revoke this kind of token (e.g. self-contained JWTs) says so; nothing to undo.
  if (error === "unsupported_token_type") return false;
  throw new McpError("http", `The authorization server refused the revocation (HTTP ${response.status}${error ? `, ${error}` : ""})`, { status: response.status });
}

function oauthFailure(what: string, err: unknown): McpError {
  if (err instanceof McpError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new McpError("unauthorized", `${what}: ${message}`, { cause: err });
}
