import "server-only";
import { config } from "@/lib/core/config";
import type { RequestHead } from "@/lib/core/access";
import crypto from "node:crypto";
import { audit, auditAs } from "@/lib/core/audit/server";
import { consoleOrigin } from "@/lib/identity/auth";
import type { Principal } from "@/lib/core/access";
import { clientInfo, signedInUserId } from "@/lib/identity/auth/server";
import { decryptJson, encryptJson, hashToken } from "@/lib/core/crypto";
import { SwitchboardError } from "@/lib/core/errors";
import { outboundFetch } from "@/lib/core/net/server";
import { beginAuthorization, classifyFailure, finishAuthorization, revokeTokens, toApiError, type Failure, type MachineCredentials, type OAuthStore, type OAuthTokenRecord, type PendingAuthorization } from "@/lib/mcp/server";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import { SHARED_SUBJECT, signInMessage, type AuthMode, type OAuthStatus, type OAuthTrace, type OAuthTraces, type SignInRequired } from "./index";
import { readTraces, refreshRecordingFetch, runChecks, traceCallback, traceSignInStart } from "./inspect";
import { enterpriseStatus } from "./enterprise";
import { CALLBACK_PATH, clientMetadataUrl } from "./client-metadata";
import * as q from "./queries";

const FLOW_TTL_MS = 10 * 60_000;
interface FlowSecret {
  codeVerifier: string;
  discovery: OAuthTokenRecord["discovery"];
  client: PendingAuthorization["client"];
  redirectUrl: string;
  subject: string;
}

/** Whose credential this work uses: the acting member's (per-member), the workspace's (shared), or none. */
function credentialSubject(server: Pick<ServerSecretRow, "authMode" | "actingUserId">): string | null {
  if (server.authMode === "oauth-shared") return SHARED_SUBJECT;
  if (server.authMode === "oauth-per-member") return server.actingUserId ?? null;
  return null;
}

/** For a call's history row: whose credential calls to the server run with now; null for servers without OAuth. */
export async function credentialUsed(server: ServerSecretRow): Promise<{ credentialMode: "member" | "shared" | "machine"; credentialUserId: string | null; credentialUserName: string | null } | null> {
  if (server.authMode === "oauth-machine" && server.kind === "http") return { credentialMode: "machine", credentialUserId: null, credentialUserName: server.oauthClientId };
  if (server.authMode === "enterprise-managed" && server.kind === "http" && server.actingUserId) {
    const user = await q.findUserName({ id: server.actingUserId });
    return { credentialMode: "member", credentialUserId: server.actingUserId, credentialUserName: user?.name ?? null };
  }
  const subject = server.kind === "http" ? credentialSubject(server) : null;
  const row = subject ? await q.findCredentialInfo({ serverId: server.id, subject }) : null;
  if (!row) return null;
  const user = await q.findUserName({ id: row.userId });
  return { credentialMode: subject === SHARED_SUBJECT ? "shared" : "member", credentialUserId: row.userId, credentialUserName: user?.name ?? null };
}

/** The error a call or connect answers when a person must sign in to the server (or consent to more scope). */
function signInRequired(server: Pick<ServerSecretRow, "id" | "name" | "authMode">, step?: { scope?: string }): SwitchboardError {
  const details: SignInRequired = {
    oauth: step ? "step_up_required" : "sign_in_required",
    serverId: server.id,
    authorizeUrl: `/api/v1/servers/${server.id}/oauth/authorize`,
    ...(step?.scope ? { scope: step.scope } : {}),
  };
  const message = step
    ? `"${server.name}" needs more access${step.scope ? ` (scope "${step.scope}")` : ""}: sign in again to consent`
    : signInMessage(server.name, server.authMode);
  return new SwitchboardError("upstream_error", message, details);
}

/** A failure of a server with OAuth, turned into sign-in-required when it is about authorization. */
export function oauthFailure(server: ServerSecretRow, failure: Failure): Failure {
  // Machine credentials involve no person, and an enterprise identity no sign-in to the server: the refusal says what to do.
  if (server.authMode === "none" || server.authMode === "oauth-machine" || server.authMode === "enterprise-managed" || failure.kind !== "unauthorized") return failure;
  const data = failure.data as { insufficientScope?: boolean; requiredScope?: string } | undefined;
  return classifyFailure(signInRequired(server, data?.insufficientScope ? { scope: data.requiredScope } : undefined));
}

/**
 * The OAuth store a live connection uses, or null for a server without OAuth. Throws
 * sign-in-required when there is no credential at all, before anything is sent.
 */
export async function connectionOAuth(server: ServerSecretRow): Promise<OAuthStore | undefined> {
  if (server.authMode === "none" || server.authMode === "oauth-machine" || server.authMode === "enterprise-managed" || server.kind !== "http") return undefined;
  const subject = credentialSubject(server);
  if (!subject || !(await q.findCredentialInfo({ serverId: server.id, subject }))) throw signInRequired(server);
  const fallbackRedirect = `${new URL(config().url ?? "http://localhost").origin}${CALLBACK_PATH}`;
  // A refresh keeps who signed in (for the shared credential, not whoever made the call that refreshed it).
  return storeFor(server, subject, { userId: null, redirectUrl: fallbackRedirect, recordRefreshes: true });
}

/** The client credentials a connection to a machine-mode server uses (decrypted here, never sent to a browser). */
export function connectionMachine(server: ServerSecretRow): MachineCredentials | undefined {
  if (server.authMode !== "oauth-machine" || server.kind !== "http") return undefined;
  if (!server.oauthClientId || !server.oauthClientSecret) throw new SwitchboardError("unprocessable", `"${server.name}" has no machine credentials; an admin can enter them in its settings`);
  return {
    method: (server.oauthClientAuth as MachineCredentials["method"] | null) ?? "client_secret_basic",
    clientId: server.oauthClientId,
    secret: decryptJson<string>(server.oauthClientSecret),
    ...(server.oauthKeyAlg ? { algorithm: server.oauthKeyAlg } : {}),
    ...(server.oauthScope ? { scope: server.oauthScope } : {}),
  };
}

/** `POST /servers/:id/oauth/authorize`: discovery, registration and PKCE by the SDK; the URL for the browser. */
export async function startAuthorization(principal: Principal, server: ServerSecretRow, request: RequestHead, scope?: string): Promise<{ authorizationUrl: string }> {
  if (server.authMode === "none") throw new SwitchboardError("bad_request", `"${server.name}" is not set up for OAuth; an admin can choose an auth mode in its settings`);
  if (server.authMode === "enterprise-managed") throw new SwitchboardError("bad_request", `"${server.name}" uses your sign-in with your organisation's identity provider: there is no separate sign-in to it`);
  if (!server.url) throw new SwitchboardError("bad_request", `"${server.name}" has no URL`);
  if (principal.via !== "session") throw new SwitchboardError("bad_request", "Signing in to a server needs a browser session, not an API token");
  const subject = credentialSubject({ ...server, actingUserId: principal.userId })!;
  const redirectUrl = `${consoleOrigin(request)}${CALLBACK_PATH}`;
  const state = crypto.randomBytes(32).toString("base64url");
  const store = storeFor(server, subject, { userId: principal.userId, redirectUrl, clientMetadataUrl: clientMetadataUrl(request), requiredScope: scope });
  const headers = server.headersSecret ? decryptJson<Record<string, string>>(server.headersSecret) : {};
  const target = { server, subject, userId: principal.userId, preRegisteredClientId: server.oauthClientId };
  const serverUrl = server.url;
  const pending = await traceSignInStart(target, store.fetch, (fetchFn) => beginAuthorization({ store, serverUrl, headers, state, fetchFn, ...(scope ? { scope } : {}) })).catch((err: unknown) => {
    throw toApiError(classifyFailure(err));
  });
  // The URL comes from metadata the server and its authorization server publish: only http(s) reaches a browser.
  const protocol = new URL(pending.authorizationUrl).protocol;
  if (protocol !== "https:" && protocol !== "http:") throw new SwitchboardError("upstream_error", `The authorization server's endpoint is not an http(s) URL (${protocol})`);
  await q.deleteStaleFlows({ before: new Date() });
  const secret: FlowSecret = { codeVerifier: pending.codeVerifier, discovery: pending.discovery, client: pending.client, redirectUrl, subject };
  await q.createFlow({
    stateHash: hashToken(state),
    workspaceId: server.workspaceId,
    serverId: server.id,
    userId: principal.userId,
    flowSecret: encryptJson(secret),
    expiresAt: new Date(Date.now() + FLOW_TTL_MS),
  });
  return { authorizationUrl: pending.authorizationUrl };
}

/** What the callback page tells the person, or where it sends them. */
export type CallbackOutcome = { ok: true; serverId: string } | { ok: false; title: string; message: string; serverId?: string };

/**
 * `GET /oauth/callback`: the state must exist, be unused and unexpired, and belong to the person
 * signed in to the console in this browser. Then the SDK redeems the code and the tokens are stored.
 */
export async function completeAuthorization(request: RequestHead): Promise<CallbackOutcome> {
  const params = new URL(request.url).searchParams;
  const state = params.get("state");
  const userId = await signedInUserId(request);
  if (!userId) return { ok: false, title: "Not signed in", message: "Sign in to the console in this browser, then start signing in to the server again." };
  const flow = state ? await q.findFlow({ stateHash: hashToken(state) }) : null;
  if (!flow || flow.userId !== userId) return { ok: false, title: "Unknown sign-in", message: "This sign-in was not started by you in this console, or the link is wrong. Start again from the server page." };
  if (flow.usedAt) return { ok: false, title: "Already used", message: "This sign-in link was used already. Start again from the server page.", serverId: flow.serverId };
  if (flow.expiresAt.getTime() < Date.now()) return { ok: false, title: "Sign-in expired", message: "This sign-in took longer than 10 minutes. Start again from the server page.", serverId: flow.serverId };
  if (!(await q.useFlow({ id: flow.id }))) return { ok: false, title: "Already used", message: "This sign-in link was used already.", serverId: flow.serverId };
  const error = params.get("error");
  if (error) {
    const { subject } = decryptJson<FlowSecret>(flow.flowSecret);
    await traceCallback({ server: { id: flow.serverId, workspaceId: flow.workspaceId }, subject, userId }, params, undefined, async () => undefined);
    const description = params.get("error_description");
    const why = error === "access_denied" ? "Access was denied at the authorization server." : `The authorization server answered "${error}".`;
    return { ok: false, title: "Sign-in did not complete", message: `${why}${description ? ` It said: ${description}` : ""}`, serverId: flow.serverId };
  }
  const code = params.get("code");
  if (!code) return { ok: false, title: "No authorization code", message: "The authorization server came back without a code.", serverId: flow.serverId };
  const server = await q.findServerForFlow({ workspaceId: flow.workspaceId, id: flow.serverId });
  if (!server?.url || server.archivedAt) return { ok: false, title: "Server gone", message: "The server was removed while you were signing in." };
  const secret = decryptJson<FlowSecret>(flow.flowSecret);
  const store = storeFor(server, secret.subject, { userId, redirectUrl: secret.redirectUrl });
  try {
    const serverUrl = server.url;
    await traceCallback({ server, subject: secret.subject, userId }, params, store.fetch, (fetchFn) =>
      finishAuthorization({ store, serverUrl, code, iss: params.get("iss") ?? undefined, pending: secret, fetchFn }),
    );
  } catch (err) {
    return { ok: false, title: "Sign-in failed", message: err instanceof Error ? err.message : String(err), serverId: server.id };
  }
  const actor = await q.findUserName({ id: userId });
  await auditAs(
    { workspaceId: server.workspaceId, type: "user", id: userId, name: actor?.name ?? null, client: clientInfo(request) },
    { action: "server.oauth_signed_in", target: { type: "server", id: server.id, name: server.name }, details: { mode: server.authMode } },
  );
  return { ok: true, serverId: server.id };
}

/** `GET /servers/:id/oauth`: the caller's sign-in state for the server; never tokens. */
export async function oauthStatus(principal: Principal, server: ServerSecretRow): Promise<OAuthStatus> {
  if (server.authMode === "enterprise-managed") return enterpriseStatus(server, principal.userId);
  const subject = credentialSubject({ ...server, actingUserId: principal.userId });
  const row = subject ? await q.findCredentialInfo({ serverId: server.id, subject }) : null;
  const by = row ? await q.findUserName({ id: row.userId }) : null;
  return {
    mode: server.authMode as AuthMode,
    signedIn: !!row,
    signedInBy: by?.name ?? null,
    scope: row?.scope ?? null,
    expiresAt: row?.expiresAt?.toISOString() ?? null,
    issuer: row?.issuer ?? null,
    clientId: server.oauthClientId,
  };
}

/** `POST /servers/:id/oauth/checks`: the live discovery checks, kept as the server's last checks. */
export function runOAuthChecks(principal: Principal, server: ServerSecretRow, request: RequestHead): Promise<OAuthTrace> {
  if (!server.url || server.kind !== "http") throw new SwitchboardError("bad_request", `"${server.name}" is not a remote server: there is no OAuth to check`);
  const origin = consoleOrigin(request);
  return runChecks(principal, server, { clientMetadataUrl: clientMetadataUrl(request) ?? null, redirectUrl: `${origin}${CALLBACK_PATH}` });
}

/** `GET /servers/:id/oauth/trace`: the last checks, and the caller's own (or the shared) last sign-in and refresh. */
export function oauthTraces(principal: Principal, server: ServerSecretRow): Promise<OAuthTraces> {
  return readTraces(server, credentialSubject({ ...server, actingUserId: principal.userId }));
}

/** `DELETE /servers/:id/oauth`: revokes at the authorization server when it offers RFC 7009, then deletes the tokens. */
export async function signOut(principal: Principal, server: ServerSecretRow): Promise<{ revoked: boolean; revocationError: string | null }> {
  const subject = credentialSubject({ ...server, actingUserId: principal.userId });
  if (!subject) return { revoked: false, revocationError: null };
  const store = storeFor(server, subject, { userId: principal.userId, redirectUrl: "" });
  let revoked = false;
  let revocationError: string | null = null;
  try {
    revoked = await revokeTokens(store);
  } catch (err) {
    revocationError = err instanceof Error ? err.message : String(err);
  }
  const { count } = await q.deleteCredential({ serverId: server.id, subject });
  if (count) await audit(principal, { action: "server.oauth_signed_out", target: { type: "server", id: server.id, name: server.name }, details: { mode: server.authMode, revoked } });
  return { revoked, revocationError };
}

/** The database behind the SDK provider for one (server, subject). */
function storeFor(
  server: ServerSecretRow,
  subject: string,
  opts: { userId: string | null; redirectUrl: string; clientMetadataUrl?: string; requiredScope?: string; recordRefreshes?: boolean },
): OAuthStore {
  const outbound = outboundFetch({ workspaceId: server.workspaceId });
  return {
    redirectUrl: opts.redirectUrl,
    ...(opts.clientMetadataUrl ? { clientMetadataUrl: opts.clientMetadataUrl } : {}),
    clientName: "Switchboard",
    fetch: opts.recordRefreshes ? refreshRecordingFetch({ server, subject, userId: null }, outbound) : outbound,
    async client(issuer) {
      if (server.oauthClientId) {
        const secret = server.oauthClientSecret ? decryptJson<string>(server.oauthClientSecret) : undefined;
        return { client_id: server.oauthClientId, ...(secret ? { client_secret: secret } : {}) };
      }
      if (!issuer) return undefined;
      const row = await q.findClient({ workspaceId: server.workspaceId, issuer });
      const info = row ? decryptJson<{ client_id: string; scope?: string }>(row.infoSecret) : undefined;
      // Authorization servers hold a dynamically registered client to the scope it registered with:
      // a step-up beyond it registers anew (the SDK then caches the new registration).
      if (info?.scope && opts.requiredScope && !covers(info.scope, opts.requiredScope)) return undefined;
      return info;
    },
    async saveClient(info, issuer, method) {
      if (server.oauthClientId || !issuer) return;
      await q.upsertClient({ workspaceId: server.workspaceId, issuer, clientId: info.client_id, method, infoSecret: encryptJson(info), redirectUri: opts.redirectUrl });
    },
    async tokens() {
      const row = await q.findCredential({ serverId: server.id, subject });
      return row ? decryptJson<OAuthTokenRecord>(row.tokensSecret) : undefined;
    },
    async saveTokens(record) {
      await q.upsertCredential({
        workspaceId: server.workspaceId,
        serverId: server.id,
        subject,
        userId: opts.userId,
        issuer: record.issuer,
        tokensSecret: encryptJson(record),
        scope: record.tokens.scope ?? null,
        expiresAt: record.expiresAt === null ? null : new Date(record.expiresAt),
      });
    },
    async forgetTokens() {
      await q.deleteCredential({ serverId: server.id, subject });
    },
  };
}
/** Tokens were issued for a URL's origin: when the server moves to another origin they go. */
export function forgetServerCredentials(serverId: string): Promise<number> {
  return q.deleteServerCredentials({ serverId });
}

export { callbackPage } from "./page";
export { clientMetadataDocument } from "./client-metadata";
export { assertIdpTokenEndpoint, connectionEnterprise } from "./enterprise";
export { knownSecretValues, serverSecretValues, sessionSecrets } from "./secret-values";

function covers(granted: string, wanted: string): boolean {
  const have = new Set(granted.split(" "));
  return wanted.split(" ").every((s) => !s || have.has(s));
}
