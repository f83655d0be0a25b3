import { diagnoseAuthError, explainExchange, explainOAuthErrorCode, oauthErrorOf } from "./oauth-diagnose";
import { explainAuthorizationUrl, type RecordedExchange } from "./oauth-trace";
import type { OAuthExchange, OAuthStep, OAuthStepId } from "./oauth-trace-types";

const STEP_TITLES: Record<OAuthStepId, string> = {
  challenge: "401 challenge",
  "resource-metadata": "Protected Resource Metadata (RFC 9728)",
  "as-metadata": "Authorization server metadata (RFC 8414 / OpenID)",
  client: "Client identity",
  authorize: "Authorization request",
  callback: "Back from the authorization server",
  token: "Token request",
  refresh: "Refresh",
};

export function step(id: OAuthStepId, fields: Omit<OAuthStep, "id" | "title" | "diagnosis" | "exchanges"> & Partial<Pick<OAuthStep, "diagnosis" | "exchanges">>): OAuthStep {
  return { id, title: STEP_TITLES[id], diagnosis: null, exchanges: [], ...fields };
}

const EXPECTED = {
  resourceMetadata: "200 with JSON naming this server as resource and at least one authorization_servers entry (path-aware well-known URL first, then the root one)",
  asMetadata: "200 with JSON whose issuer equals the authorization server URL, with authorization and token endpoints and S256 PKCE (RFC 8414 first, then OpenID discovery)",
  token: "200 with an access_token (Bearer), its expiry and, for later refreshes, a refresh_token",
  callback: "The console's callback with a code, the same state, and iss when the authorization server supports RFC 9207",
};

/** What a person's sign-in start did: discovery, client, the authorization URL; a failure lands on its step. */
export function signInSteps(input: {
  recorded: RecordedExchange[];
  clientId: string | null;
  clientSource: string | null;
  authorizationUrl: string | null;
  error?: unknown;
}): OAuthStep[] {
  const of = (kind: RecordedExchange["kind"]) => input.recorded.filter((r) => r.kind === kind).map((r) => r.exchange);
  const registration = of("registration");
  const steps = [
    discoveryStep("resource-metadata", of("resource-metadata"), EXPECTED.resourceMetadata, (body) => `resource ${String(body.resource)}; authorization_servers ${JSON.stringify(body.authorization_servers ?? [])}`),
    discoveryStep("as-metadata", of("as-metadata"), EXPECTED.asMetadata, (body) => `issuer ${String(body.issuer)}; authorization_endpoint ${String(body.authorization_endpoint)}; token_endpoint ${String(body.token_endpoint)}`),
    registration.length
      ? exchangeStep("client", registration, "Dynamic Client Registration (RFC 7591): 201 with a client_id", (body) => `registered client_id ${String(body.client_id)}`)
      : step("client", {
          status: input.clientId ? "ok" : "pending",
          expected: "A pre-registered client, the console's Client ID Metadata Document, or Dynamic Client Registration, in that order",
          found: input.clientId ? `${input.clientSource ?? "client"}: ${input.clientId}` : "Not reached",
        }),
    input.authorizationUrl
      ? step("authorize", {
          status: "ok",
          expected: "The browser goes to the authorization endpoint with PKCE (S256), the resource indicator and a state bound to the person",
          found: `The browser was sent to ${new URL(input.authorizationUrl).origin}${new URL(input.authorizationUrl).pathname}`,
          params: explainAuthorizationUrl(input.authorizationUrl),
        })
      : step("authorize", { status: "pending", expected: "The browser goes to the authorization endpoint", found: "Not reached" }),
    step("callback", { status: "pending", expected: EXPECTED.callback, found: "Waiting for the browser to come back" }),
    step("token", { status: "pending", expected: EXPECTED.token, found: "Runs when the browser comes back with a code" }),
  ];
  return input.error === undefined ? steps : withFailure(steps, input.error);
}

/** The callback leg: what the browser brought back and the token request. */
export function callbackSteps(input: { params: URLSearchParams; recorded: RecordedExchange[]; error?: unknown }): OAuthStep[] {
  const asError = input.params.get("error");
  const callback = step("callback", {
    status: asError ? "failed" : "ok",
    expected: EXPECTED.callback,
    found: asError ? `error=${asError}` : `code received${input.params.get("iss") ? `; iss ${input.params.get("iss")}` : ""}`,
    diagnosis: asError ? explainOAuthErrorCode(asError, input.params.get("error_description")) : null,
    params: [...input.params.keys()].map((name) => ({
      name,
      value: ["code", "state"].includes(name) ? "[redacted]" : (input.params.get(name) ?? ""),
      note: name === "code" ? "the authorization code, redeemed once at the token endpoint (masked here)" : name === "iss" ? "RFC 9207: who issued the code" : "",
    })),
  });
  if (asError) return [callback, step("token", { status: "skipped", expected: EXPECTED.token, found: "Not run: the authorization server answered with an error" })];
  const tokens = input.recorded.filter((r) => r.kind === "token").map((r) => r.exchange);
  const steps = [callback, tokens.length ? exchangeStep("token", tokens, EXPECTED.token, describeTokens) : step("token", { status: "pending", expected: EXPECTED.token, found: "Not reached" })];
  return input.error === undefined ? steps : withFailure(steps, input.error);
}

/** A refresh the console did: the refresh_token grant (and any discovery it needed first). */
export function refreshSteps(recorded: RecordedExchange[]): OAuthStep[] {
  const asMetadata = recorded.filter((r) => r.kind === "as-metadata").map((r) => r.exchange);
  const refresh = recorded.filter((r) => r.kind === "refresh").map((r) => r.exchange);
  return [
    ...(asMetadata.length ? [discoveryStep("as-metadata", asMetadata, EXPECTED.asMetadata, (body) => `issuer ${String(body.issuer)}`)] : []),
    exchangeStep("refresh", refresh, "200 with a new access_token (and usually a new refresh_token: rotation)", describeTokens),
  ];
}

function describeTokens(body: Record<string, unknown>): string {
  const parts = [`token_type ${String(body.token_type)}`];
  if (body.expires_in !== undefined) parts.push(`expires in ${String(body.expires_in)} s`);
  if (body.scope) parts.push(`scope ${String(body.scope)}`);
  parts.push(body.refresh_token ? "refresh token issued" : "no refresh token (the person must sign in again when it expires)");
  return parts.join("; ");
}

function jsonOf(exchange: OAuthExchange | undefined): Record<string, unknown> | null {
  const body = exchange?.responseBody;
  return body?.kind === "json" && body.value && typeof body.value === "object" ? (body.value as Record<string, unknown>) : null;
}

function discoveryStep(id: OAuthStepId, exchanges: OAuthExchange[], expected: string, describe: (body: Record<string, unknown>) => string): OAuthStep {
  if (!exchanges.length) return step(id, { status: "skipped", expected, found: "Not fetched: the console used what it found at the last sign-in" });
  const hit = exchanges.find((e) => e.status === 200);
  const body = jsonOf(hit);
  if (hit && body) return step(id, { status: "ok", expected, found: `${hit.url}: ${describe(body)}`, exchanges });
  const last = exchanges[exchanges.length - 1]!;
  return step(id, { status: "failed", expected, found: exchanges.map((e) => `${e.url} → ${e.status ?? e.error}`).join("; "), diagnosis: explainExchange(last), exchanges });
}

function exchangeStep(id: OAuthStepId, exchanges: OAuthExchange[], expected: string, describe: (body: Record<string, unknown>) => string): OAuthStep {
  const last = exchanges[exchanges.length - 1];
  if (!last) return step(id, { status: "pending", expected, found: "Not reached" });
  const body = jsonOf(last);
  const ok = last.status !== null && last.status >= 200 && last.status < 300 && body && !oauthErrorOf(last);
  if (ok) return step(id, { status: "ok", expected, found: `HTTP ${last.status}: ${describe(body)}`, exchanges });
  return step(id, { status: "failed", expected, found: last.status === null ? `no answer (${last.error})` : `HTTP ${last.status}`, diagnosis: explainExchange(last), exchanges });
}

/** Puts a flow's error on its step (or the last step that ran) and marks what came after as not run. */
function withFailure(steps: OAuthStep[], error: unknown): OAuthStep[] {
  const { step: target, text } = diagnoseAuthError(error);
  let index = target ? steps.findIndex((s) => s.id === target) : -1;
  if (index < 0) index = steps.findIndex((s) => s.status === "failed");
  if (index < 0) index = Math.max(0, steps.findLastIndex((s) => s.exchanges.length > 0));
  return steps.map((s, i) => {
    if (i === index) return { ...s, status: "failed", diagnosis: s.status === "failed" && s.diagnosis && !target ? s.diagnosis : text };
    if (i > index) return { ...s, status: "skipped", found: "Not run: an earlier step failed" };
    return s;
  });
}
