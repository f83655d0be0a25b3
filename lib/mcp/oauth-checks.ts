import {
  buildDiscoveryUrls,
  checkResourceAllowed,
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  IssuerMismatchError,
  LATEST_PROTOCOL_VERSION,
  resourceUrlFromServerUrl,
  type AuthorizationServerMetadata,
  type FetchLike,
  type OAuthProtectedResourceMetadata,
} from "@modelcontextprotocol/client";
import { explainExchange, issuerMismatch, NO_CLIENT_IDENTITY, NO_S256, resourceMismatch } from "./oauth-diagnose";
import { step } from "./oauth-steps";
import { createOAuthRecorder, type OAuthRecorder } from "./oauth-trace";
import type { OAuthStep } from "./oauth-trace-types";

const TIMEOUT_MS = 10_000;

/** How the console would identify itself to an authorization server, as lib/domains/server-oauth knows it. */
interface ClientIdentityFacts {
  preRegisteredClientId: string | null;
  /** The workspace's earlier registration with this issuer, if any. */
  registeredClient(issuer: string): Promise<{ clientId: string; method: string } | null>;
  /** Set when the console is served over https and can offer its Client ID Metadata Document. */
  clientMetadataUrl: string | null;
  /** The console's callback, to register by hand with a client ID. */
  redirectUrl: string;
}

/**
 * Walks the discovery half of the MCP authorization flow live, read-only (nothing is registered,
 * no token asked for): the unauthenticated 401, Protected Resource Metadata, authorization server
 * metadata and which client identity would be used. Each step says what was expected, what was
 * found and, when it is wrong, what to change. The SDK's own discovery functions do the fetching,
 * so the checks see what a sign-in would see.
 */
export async function runOAuthChecks(input: { serverUrl: string; client: ClientIdentityFacts; fetchFn?: FetchLike }): Promise<OAuthStep[]> {
  const serverUrl = input.serverUrl;
  const base = input.fetchFn ?? fetch;
  const timed: FetchLike = (url, init) => base(url, { ...init, signal: init?.signal ?? AbortSignal.timeout(TIMEOUT_MS) });
  const steps: OAuthStep[] = [];
  const challengeRecorder = createOAuthRecorder({ all: true, base: timed });
  const challenge = await checkChallenge(serverUrl, challengeRecorder);
  steps.push(challenge.step);
  if (challenge.unreachable) return [...steps, ...notRun(["resource-metadata", "as-metadata", "client", "authorize"])];

  const prmRecorder = createOAuthRecorder({ all: true, base: timed });
  let prm: OAuthProtectedResourceMetadata | undefined;
  let prmError: string | null = null;
  try {
    prm = await discoverOAuthProtectedResourceMetadata(serverUrl, challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}, prmRecorder.fetch);
  } catch (err) {
    prmError = err instanceof Error ? err.message : String(err);
  }
  const prmExchanges = prmRecorder.exchanges.map((r) => r.exchange);
  const expectedResource = resourceUrlFromServerUrl(serverUrl).href;
  const prmExpected = `200 with JSON whose resource is ${expectedResource} (or its origin) and that lists authorization_servers; ${challenge.resourceMetadataUrl ? "at the URL the 401 named" : "path-aware well-known URL first, then the root one"}`;
  let asUrl = new URL("/", serverUrl).href;
  if (!prm) {
    const lastExchange = prmExchanges[prmExchanges.length - 1];
    const missing = !lastExchange || lastExchange.status === 404 || /does not implement/.test(prmError ?? "");
    steps.push(
      step("resource-metadata", {
        status: "failed",
        expected: prmExpected,
        found: prmExchanges.map((e) => `${e.url} → ${e.status ?? e.error}`).join("; ") || (prmError ?? "nothing"),
        diagnosis: missing
          ? `The server publishes no Protected Resource Metadata (RFC 9728), so clients cannot learn which authorization server to use. Serve {"resource": "${expectedResource}", "authorization_servers": ["<issuer URL>"]} at ${prmExchanges[0]?.url ?? "/.well-known/oauth-protected-resource"} and name it in the 401's WWW-Authenticate resource_metadata parameter. Meanwhile the console falls back to ${asUrl} as the authorization server (the 2025-03-26 behaviour).`
          : lastExchange && lastExchange.status !== 200
            ? explainExchange(lastExchange)
            : `The resource metadata is not valid RFC 9728 JSON: ${prmError}`,
        exchanges: prmExchanges,
      }),
    );
  } else {
    const found = `resource ${prm.resource}; authorization_servers ${JSON.stringify(prm.authorization_servers ?? [])}${prm.scopes_supported ? `; scopes_supported ${prm.scopes_supported.join(" ")}` : ""}`;
    const matches = checkResourceAllowed({ requestedResource: expectedResource, configuredResource: prm.resource });
    const servers = prm.authorization_servers ?? [];
    const diagnosis = !matches
      ? resourceMismatch(prm.resource, expectedResource)
      : servers.length === 0
        ? `The resource metadata lists no authorization_servers: clients cannot tell where to sign in. Add the issuer URL of your authorization server; meanwhile the console falls back to ${asUrl}.`
        : null;
    steps.push(step("resource-metadata", { status: diagnosis ? "failed" : "ok", expected: prmExpected, found, diagnosis, exchanges: prmExchanges }));
    if (!matches) return [...steps, ...notRun(["as-metadata", "client", "authorize"])];
    if (servers[0]) asUrl = servers[0];
  }

  const asRecorder = createOAuthRecorder({ all: true, base: timed });
  const as = await checkAuthorizationServer(asUrl, asRecorder);
  steps.push(as.step);
  if (!as.metadata) return [...steps, ...notRun(["client", "authorize"])];
  if (!prm && steps[1]) steps[1] = { ...steps[1], status: "warning" };

  steps.push(await checkClient(as.metadata, input.client));
  steps.push(authorizeStep(as.metadata, prm, challenge.scope));
  return steps;
}

interface ChallengeOutcome {
  step: OAuthStep;
  unreachable: boolean;
  resourceMetadataUrl?: URL;
  scope?: string;
}

async function checkChallenge(serverUrl: string, recorder: OAuthRecorder): Promise<ChallengeOutcome> {
  const expected = "401 with WWW-Authenticate: Bearer resource_metadata=\"…\" (and the scope needed) for a request without a token";
  const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "switchboard-oauth-check", version: "1.0.0" } } };
  let response: Response;
  try {
    response = await recorder.fetch(serverUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(initialize),
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { unreachable: true, step: step("challenge", { status: "failed", expected, found: `no answer: ${reason}`, diagnosis: `The console could not reach ${serverUrl} (${reason}). Check the URL and that the server is running.`, exchanges: exchangesOf(recorder) }) };
  }
  const sessionId = response.headers.get("mcp-session-id");
  // A server that let the check in opened a session: leave it.
  if (sessionId) await recorder.fetch(serverUrl, { method: "DELETE", headers: { "mcp-session-id": sessionId } }).catch(() => undefined);
  const header = response.headers.get("www-authenticate");
  const params = extractWWWAuthenticateParams(response);
  const exchanges = exchangesOf(recorder);
  const base = { expected, exchanges, found: `HTTP ${response.status}${header ? `; WWW-Authenticate: ${header}` : "; no WWW-Authenticate header"}` };
  const out = { unreachable: false, ...(params.resourceMetadataUrl ? { resourceMetadataUrl: params.resourceMetadataUrl } : {}), ...(params.scope ? { scope: params.scope } : {}) };
  if (response.status === 401 || response.status === 403) {
    if (!header) {
      return { ...out, step: step("challenge", { ...base, status: "warning", diagnosis: "The server answered 401 without a WWW-Authenticate header. MCP servers should send WWW-Authenticate: Bearer resource_metadata=\"<URL of the resource metadata>\" so clients find it; clients fall back to the well-known URLs." }) };
    }
    if (response.status === 403 && params.error === "insufficient_scope") {
      return { ...out, step: step("challenge", { ...base, status: "warning", diagnosis: "The server answered 403 insufficient_scope to a request without any token; a request without a token should get 401." }) };
    }
    return { ...out, step: step("challenge", { ...base, status: "ok", diagnosis: params.resourceMetadataUrl ? null : "The challenge names no resource_metadata URL: clients look at the well-known URLs instead. Naming it is more robust." }) };
  }
  if (response.ok) {
    return { ...out, step: step("challenge", { ...base, status: "warning", diagnosis: `The server answered HTTP ${response.status} without a token: it does not ask for authorization (at least not for initialize). If it should, it must answer 401 with a WWW-Authenticate header.` }) };
  }
  return { ...out, step: step("challenge", { ...base, status: "failed", diagnosis: `The server answered HTTP ${response.status} where a protected MCP endpoint answers 401: check the URL (the MCP endpoint, often ending in /mcp).` }) };
}

async function checkAuthorizationServer(asUrl: string, recorder: OAuthRecorder): Promise<{ step: OAuthStep; metadata?: AuthorizationServerMetadata }> {
  const expected = `200 with JSON whose issuer is exactly ${asUrl}, with authorization_endpoint, token_endpoint, response type “code” and S256 in code_challenge_methods_supported (tried: ${buildDiscoveryUrls(asUrl).map((u) => u.url.pathname).join(", ")})`;
  let metadata: AuthorizationServerMetadata | undefined;
  try {
    metadata = await discoverAuthorizationServerMetadata(asUrl, { fetchFn: recorder.fetch });
  } catch (err) {
    const exchanges = exchangesOf(recorder);
    const diagnosis = err instanceof IssuerMismatchError ? issuerMismatch(err.expected, err.received) : `The metadata could not be used: ${err instanceof Error ? err.message : String(err)}`;
    return { step: step("as-metadata", { status: "failed", expected, found: exchanges.map((e) => `${e.url} → ${e.status ?? e.error}`).join("; "), diagnosis, exchanges }) };
  }
  const exchanges = exchangesOf(recorder);
  if (!metadata) {
    return {
      step: step("as-metadata", {
        status: "failed",
        expected,
        found: exchanges.map((e) => `${e.url} → ${e.status ?? e.error}`).join("; "),
        diagnosis: `No authorization server metadata at ${asUrl}: none of the RFC 8414 or OpenID discovery URLs answered. Check the authorization_servers entry of the resource metadata, and that the authorization server publishes /.well-known/oauth-authorization-server.`,
        exchanges,
      }),
    };
  }
  const methods = metadata.code_challenge_methods_supported;
  const problems: string[] = [];
  let status: OAuthStep["status"] = "ok";
  if (!metadata.response_types_supported.includes("code")) {
    status = "failed";
    problems.push("The authorization server does not offer the authorization code flow (response_types_supported lacks “code”), which MCP requires.");
  }
  if (methods && !methods.includes("S256")) {
    status = "failed";
    problems.push(NO_S256);
  } else if (!methods) {
    status = "warning";
    problems.push("The metadata has no code_challenge_methods_supported. The MCP spec tells clients to refuse an authorization server that does not advertise S256; the console goes on, but other clients will stop here.");
  }
  const found = `issuer ${metadata.issuer}; authorization_endpoint ${metadata.authorization_endpoint}; token_endpoint ${metadata.token_endpoint}; code_challenge_methods_supported ${JSON.stringify(methods ?? null)}`;
  return { metadata, step: step("as-metadata", { status, expected, found, diagnosis: problems.join(" ") || null, exchanges }) };
}

async function checkClient(metadata: AuthorizationServerMetadata, facts: ClientIdentityFacts): Promise<OAuthStep> {
  const expected = "A pre-registered client, else the console's Client ID Metadata Document (when the authorization server supports them and the console is on https), else Dynamic Client Registration";
  const cimd = metadata.client_id_metadata_document_supported === true;
  if (facts.preRegisteredClientId) return step("client", { status: "ok", expected, found: `Pre-registered client ${facts.preRegisteredClientId}, entered in the server's settings` });
  const known = await facts.registeredClient(metadata.issuer);
  if (known) return step("client", { status: "ok", expected, found: `Reuses the client ${known.clientId} the workspace ${known.method === "cimd" ? "identified with its metadata document" : "registered"} earlier with this issuer` });
  if (cimd && facts.clientMetadataUrl) return step("client", { status: "ok", expected, found: `Client ID Metadata Document: client_id ${facts.clientMetadataUrl}` });
  const cimdNote = cimd ? " The authorization server also accepts client metadata documents, but it fetches them over https and this console is not served over https." : "";
  if (metadata.registration_endpoint) return step("client", { status: "ok", expected, found: `Dynamic Client Registration at ${metadata.registration_endpoint} when someone signs in.${cimdNote}` });
  const diagnosis = `${
    cimd
      ? "This authorization server accepts only client metadata documents, which it fetches over https, and this console is not served over https: serve the console on https (SWITCHBOARD_URL), or enter a client ID in the server's settings."
      : NO_CLIENT_IDENTITY
  } Register ${facts.redirectUrl} as the client's redirect URI.`;
  return step("client", { status: "failed", expected, found: `No registration_endpoint; client_id_metadata_document_supported ${String(metadata.client_id_metadata_document_supported ?? false)}`, diagnosis });
}

function authorizeStep(metadata: AuthorizationServerMetadata, prm: OAuthProtectedResourceMetadata | undefined, challengeScope: string | undefined): OAuthStep {
  let scope = challengeScope ?? prm?.scopes_supported?.join(" ") ?? "";
  if (scope && metadata.scopes_supported?.includes("offline_access") && !scope.split(" ").includes("offline_access")) scope += " offline_access";
  const params = [
    { name: "response_type", value: "code", note: "the authorization code flow" },
    { name: "code_challenge_method", value: "S256", note: "PKCE method; MCP requires S256" },
    { name: "scope", value: scope || "(none)", note: "from the 401 challenge, else the resource's scopes_supported; offline_access when the authorization server offers it, for a refresh token" },
    { name: "resource", value: prm?.resource ?? "(none: no resource metadata)", note: "RFC 8707: the token's audience" },
  ];
  return step("authorize", {
    status: "pending",
    expected: "The browser goes to the authorization endpoint with PKCE (S256), the resource indicator and a state bound to the person",
    found: `Runs when someone signs in: ${metadata.authorization_endpoint}`,
    params,
  });
}

function notRun(ids: OAuthStep["id"][]): OAuthStep[] {
  return ids.map((id) => step(id, { status: "skipped", expected: "", found: "Not run: an earlier step failed" }));
}

function exchangesOf(recorder: OAuthRecorder) {
  return recorder.exchanges.map((r) => r.exchange);
}
