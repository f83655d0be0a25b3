import { auth, computeScopeUnion, extractWWWAuthenticateParams, type FetchLike } from "@modelcontextprotocol/client";
import { McpError } from "./errors";
import { explainError } from "./explain";
import { ConsoleOAuthProvider, type OAuthStore, type PendingAuthorization } from "./oauth-provider";

export type { OAuthStore, OAuthTokenRecord, PendingAuthorization } from "./oauth-provider";

/**
 * Starts an authorization for a person: discovery, client registration (CIMD or DCR when no client
 * is known for the issuer), PKCE and the authorization URL, all by the SDK's `auth()`. It starts
 * from the server's own 401 challenge, as the SDK transport does: its `resource_metadata` and
 * `scope`; a step-up (`scope`, from a 403 insufficient_scope) asks for that scope on top of what
 * was asked and granted before.
 */
export async function beginAuthorization(input: {
  store: OAuthStore;
  serverUrl: string;
  headers: Record<string, string>;
  state: string;
  scope?: string;
  fetchFn?: FetchLike;
}): Promise<PendingAuthorization> {
  const provider = new ConsoleOAuthProvider(input.store, input.serverUrl, input.state);
  const fetchFn = input.fetchFn ?? input.store.fetch;
  try {
    const challenge = await readChallenge(input.serverUrl, input.headers, input.store.fetch ?? fetch);
    const granted = input.scope ? (await input.store.tokens())?.tokens.scope : undefined;
    const scope = input.scope ? computeScopeUnion(challenge.scope, granted, input.scope) : challenge.scope;
    await auth(provider, {
      serverUrl: input.serverUrl,
      forceReauthorization: true,
      ...(fetchFn ? { fetchFn } : {}),
      ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
      ...(scope ? { scope } : {}),
    });
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
  fetchFn?: FetchLike;
}): Promise<void> {
  const provider = new ConsoleOAuthProvider(input.store, input.serverUrl, undefined, input.pending);
  try {
    const result = await auth(provider, {
      serverUrl: input.serverUrl,
      fetchFn: input.fetchFn ?? input.store.fetch,
      authorizationCode: input.code,
      ...(input.iss ? { iss: input.iss } : {}),
    });
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
  const response = await (store.fetch ?? fetch)(endpoint, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
  if (response.ok) return true;
  const error = ((await response.json().catch(() => null)) as { error?: string } | null)?.error;
  // A server that cannot revoke this kind of token (e.g. self-contained JWTs) says so; nothing to undo.
  if (error === "unsupported_token_type") return false;
  throw new McpError("http", `The authorization server refused the revocation (HTTP ${response.status}${error ? `, ${error}` : ""})`, { status: response.status });
}

/**
 * What the server answers a request without a token: a 401 whose WWW-Authenticate names the
 * resource metadata and the scope it wants (parsed by the SDK). The request is a JSON-RPC `ping`,
 * which opens no session; a server that answers anything but 401 has no challenge to offer.
 */
async function readChallenge(serverUrl: string, headers: Record<string, string>, fetchFn: FetchLike): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  const response = await fetchFn(serverUrl, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: "switchboard-auth-probe", method: "ping" }),
    redirect: "manual",
    signal: AbortSignal.timeout(10_000),
  }).catch(() => null);
  await response?.body?.cancel().catch(() => {});
  if (response?.status !== 401) return {};
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
}

function oauthFailure(what: string, err: unknown): McpError {
  if (err instanceof McpError) return err;
  const explained = explainError(err);
  if (explained.kind === "blocked") return explained;
  const message = err instanceof Error ? err.message : String(err);
  return new McpError("unauthorized", `${what}: ${message}`, { cause: err });
}
