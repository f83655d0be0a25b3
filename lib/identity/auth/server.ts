import "server-only";
import { config } from "@/lib/core/config";
import type { RequestHead } from "./index";
import { effectiveRole, parseTokenScopes, roleRank, type Role } from "@/lib/core/access";
import { hashToken } from "@/lib/core/crypto";
import { SwitchboardError } from "@/lib/core/errors";
import { auth } from "./better-auth";
import { consoleOrigin, requestOrigin, type ClientInfo, type Principal } from "./index";
import * as q from "./queries";
import { assertSignInAllowed, recordSignInFailure, recordSignInSuccess } from "./sign-in-limit";
import { cacheEpoch, existingPiece, forgetCache, piece } from "@/lib/core/runtime";
import { signedInWithSso, ssoSessionStands } from "@/lib/identity/sso/server";

export { auth, createUserWithPassword, findOrCreateUser } from "./better-auth";
export { GATEWAY_CONSENT_PAGE, GATEWAY_LOGIN_PAGE } from "./gateway-oauth";
export { findGatewayTarget } from "./queries";

/** A gateway access token as the OAuth provider sees it (RFC 7662 shape); `active: false` for anything else. */
export interface GatewayTokenIntrospection {
  active: boolean;
  sub?: string;
  client_id?: string;
  scope?: string;
  aud?: string | string[];
  exp?: number;
}

/** Asks the OAuth provider plugin about an access token: unknown, expired, revoked or disabled-client tokens are inactive. */
export async function introspectGatewayAccessToken(token: string): Promise<GatewayTokenIntrospection> {
  return (await auth.api.validateGatewayAccessToken({ body: { token } })) as GatewayTokenIntrospection;
}

const WORKSPACE_HEADER = "x-workspace-id";
const TOKEN_CACHE_MS = 10_000;
const lastUsedWrites = () => piece("tokenUseWrites", () => new Map<string, number>());
const lastActiveWrites = () => piece("memberActivityWrites", () => new Map<string, number>());
/** Set by the request front (lib/start/front.ts) from the socket, replacing anything a client sent under that name. */
const CLIENT_IP_HEADER = "x-switchboard-client-ip";
/** Set by the request front (lib/start/front.ts) to the forwarding headers a request arrived with (lib/api/request-target.ts). */
export const FORWARDED_HEADER = "x-switchboard-forwarded";
// Verified tokens by hash: saves two queries per scripted call. Revocation clears it.
const tokenCache = () => piece("tokenCache", () => new Map<string, { principal: Principal; until: number }>());

/** Forget every cached token verdict (after a revocation or a membership change). */
export function clearTokenCache(): Promise<void> {
  return forgetCache("tokenCache");
}

/**
 * Who is calling and in which workspace: a bearer API token (bound to one workspace) or a
 * better-auth session cookie (workspace from the `x-workspace-id` header, else the first membership).
 */
export async function authenticate(request: RequestHead): Promise<Principal> {
  const header = request.headers.get("authorization");
  if (header?.toLowerCase().startsWith("bearer ")) {
    const principal = await fromToken(header.slice(7).trim(), request);
    if (principal.tokenScim) throw new SwitchboardError("unauthorized", "A SCIM token opens only /scim/v2; send an API token");
    if (!principal.tokenScope) throw new SwitchboardError("forbidden", "This API token only opens the MCP gateway (/mcp); create one with the full or read scope for the API");
    return principal;
  }
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session) throw new SwitchboardError("unauthorized", "Sign in or send an API token (Authorization: Bearer …)");
  if (!(await ssoSessionStands(session.user.id))) throw new SwitchboardError("unauthorized", "Your sign-in with your organisation's identity provider has ended: sign in again");
  // EventSource cannot send headers, so event streams name the workspace in the query.
  const wanted = request.headers.get(WORKSPACE_HEADER) ?? new URL(request.url).searchParams.get("workspace");
  const member = await q.findMembership({ userId: session.user.id, workspaceId: wanted });
  // A session ended while the browser's cookie cache still holds it (deprovisioned by SCIM): 401, not 403.
  if (!member && !(await q.sessionExists({ id: session.session.id }))) throw new SwitchboardError("unauthorized", "Your session has ended: sign in again");
  if (!member) throw new SwitchboardError("forbidden", wanted ? "You are not a member of this workspace" : "You are not a member of any workspace");
  // A password session that outlived "require SSO" (the browser's session cache keeps one up to a minute) ends here.
  if (member.workspace.ssoRequired && member.role !== "owner" && !(await signedInWithSso(session.user.id))) {
    throw new SwitchboardError("unauthorized", "This workspace requires signing in with your organisation's identity provider: sign out, then use its button on the sign-in page");
  }
  touchMember(member.id);
  const role = asRole(member.role);
  return { userId: session.user.id, userName: session.user.name, workspaceId: member.workspaceId, role, memberRole: role, via: "session", client: clientInfo(request) };
}

/** Ends every browser session of the person (deprovisioned): the next request with one answers 401. */
export async function endUserSessions({ userId }: { userId: string }): Promise<number> {
  return (await q.deleteSessions({ userId })).count;
}

/** The user of the request's session cookie (never a bearer token), or null: for routes bound to the person in the browser. */
export async function signedInUserId(request: RequestHead): Promise<string | null> {
  const session = await auth.api.getSession({ headers: request.headers }).catch(() => null);
  return session?.user.id ?? null;
}

/** The caller's address (see clientAddress) and user agent, for the audit log. */
export function clientInfo(request: RequestHead): ClientInfo {
  return { ip: clientAddress(request) || null, userAgent: request.headers.get("user-agent")?.slice(0, 500) ?? null };
}

/** The host (and port) the request addressed, as the proxy received it when trusted (see requestOrigin). */
export function requestHost(request: RequestHead): string {
  return new URL(requestOrigin(request)).host;
}

/**
 * The address that made the request: the socket's (set by the request front, lib/start/front.ts), or behind a proxy the
 * operator vouches for (`SWITCHBOARD_TRUST_PROXY=1`) the address that proxy saw, which it
 * appended last to `X-Forwarded-For` (the entries before it are the client's to invent).
 */
export function clientAddress(request: RequestHead): string {
  if (config().trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",").map((e) => e.trim()).filter(Boolean).at(-1);
    if (forwarded) return forwarded;
  }
  return request.headers.get(CLIENT_IP_HEADER) ?? "";
}

function asRole(role: string): Role {
  return roleRank(role) >= 0 ? (role as Role) : "viewer";
}

/**
 * A person acting in a workspace through an OAuth grant of the gateway: their membership now,
 * cached with the token verdicts (a membership change empties both), or null for a non-member.
 */
export async function grantPrincipal(userId: string, workspaceId: string, request: RequestHead): Promise<Principal | null> {
  const key = `grant ${userId} ${workspaceId}`;
  const cached = tokenCache().get(key);
  if (cached && cached.until > Date.now()) return { ...cached.principal, client: clientInfo(request) };
  const epoch = cacheEpoch("tokenCache");
  const member = await q.findMembership({ userId, workspaceId });
  if (!member) return null;
  const user = await q.findUserName({ id: userId });
  const role = asRole(member.role);
  const principal: Principal = { userId, userName: user?.name ?? "", workspaceId, role, memberRole: role, via: "token", client: { ip: null, userAgent: null } };
  if (tokenCache().size > 10_000) tokenCache().clear();
  if (epoch === cacheEpoch("tokenCache")) tokenCache().set(key, { principal, until: Date.now() + TOKEN_CACHE_MS });
  return { ...principal, client: clientInfo(request) };
}

/** The principal of an API token (any scope), or an unauthorized error: the gateway checks the scope itself. */
export async function fromToken(token: string, request: RequestHead): Promise<Principal> {
  const tokenHash = hashToken(token);
  const cached = tokenCache().get(tokenHash);
  if (cached && cached.until > Date.now()) return { ...cached.principal, client: clientInfo(request) };
  const epoch = cacheEpoch("tokenCache");
  const principal = await verifyToken(tokenHash);
  if (tokenCache().size > 10_000) tokenCache().clear();
  if (epoch === cacheEpoch("tokenCache")) tokenCache().set(tokenHash, { principal, until: Date.now() + TOKEN_CACHE_MS });
  return { ...principal, client: clientInfo(request) };
}

async function verifyToken(tokenHash: string): Promise<Principal> {
  const row = await q.findTokenWithMember({ tokenHash });
  if (!row || row.revokedAt) throw new SwitchboardError("unauthorized", "Invalid or revoked API token");
  const { member } = row;
  if (!member) throw new SwitchboardError("unauthorized", "The token's owner is no longer a member of its workspace");
  touchToken(row.id);
  touchMember(member.id);
  const memberRole = asRole(member.role);
  const scopes = parseTokenScopes(row.scope);
  return {
    userId: row.userId,
    userName: row.user.name,
    workspaceId: row.workspaceId,
    role: effectiveRole(memberRole, scopes.api ?? undefined),
    memberRole,
    via: "token",
    tokenId: row.id,
    ...(scopes.api ? { tokenScope: scopes.api } : {}),
    tokenGateway: scopes.gateway,
    ...(scopes.scim ? { tokenScim: true } : {}),
    client: { ip: null, userAgent: null },
  };
}

// Last activity on the members page: at most one write a minute per membership, off the request path.
function touchMember(id: string) {
  const now = Date.now();
  if ((lastActiveWrites().get(id) ?? 0) > now - 60_000) return;
  lastActiveWrites().set(id, now);
  // Written by lib/team/members (installed by lib/start; none in a process that did not start the console).
  void existingPiece<{ touch(input: { id: string }): Promise<unknown> }>("memberWrites")?.touch({ id }).catch(() => undefined);
}

// lastUsedAt is informational: write it at most once a minute per token, off the request path.
function touchToken(id: string) {
  const now = Date.now();
  if ((lastUsedWrites().get(id) ?? 0) > now - 60_000) return;
  lastUsedWrites().set(id, now);
  void q.touchToken({ id }).catch(() => undefined);
}

/**
 * better-auth's handler with the sign-in limits around `sign-in/email` (sign-in-limit.ts): a
 * caller past a limit gets 429 before the password is even checked.
 */
/**
 * The request as addressed to the console's public origin (SWITCHBOARD_URL, else the request's
 * own, see consoleOrigin): better-auth derives its base URL, and so the OAuth issuer and endpoint
 * URLs, from the request URL, which Next builds on the host it listens as.
 */
export function atConsoleOrigin(request: Request): Request {
  const url = new URL(request.url);
  const origin = consoleOrigin(request);
  if (url.origin === origin) return request;
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(`${origin}${url.pathname}${url.search}`, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    ...(hasBody ? { body: request.body, duplex: "half" } : {}),
  } as RequestInit);
}

export async function limitedSignIn(request: Request, handle: (request: Request) => Promise<Response>): Promise<Response> {
  if (!new URL(request.url).pathname.endsWith("/sign-in/email")) return handle(request);
  const body = (await request.clone().json().catch(() => null)) as { email?: unknown } | null;
  const attempt = { email: typeof body?.email === "string" ? body.email.slice(0, 320) : "", address: clientAddress(request) };
  await assertSignInAllowed(attempt);
  const response = await handle(request);
  if (response.ok) await recordSignInSuccess(attempt);
  else if (response.status === 401 || response.status === 403) await recordSignInFailure(attempt);
  return response;
}
