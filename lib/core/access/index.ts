import { config } from "@/lib/core/config";
import { SwitchboardError } from "@/lib/core/errors";
import { AUDITOR_READS_UNDER, AUDITOR_ROUTES } from "./matrix";

/**
 * Workspace roles, weakest first. Each role can do everything the ones before it can, except the
 * auditor: it reads what a viewer reads plus the audit log (AUDITOR_ROUTES), and writes nothing a
 * viewer may write (the gate, `gateRefusal`).
 */
export const ROLES = ["viewer", "auditor", "member", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];

/** What an API token may do: everything its creator's role allows, or reading only. */
export const TOKEN_SCOPES = ["full", "read"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/**
 * A token's scopes: an API scope ("full" or "read", at most one) and/or "gateway" (the MCP
 * endpoints under /mcp, lib/gateway). A token with only "gateway" opens no API route.
 */
export const TOKEN_SCOPE_NAMES = ["full", "read", "gateway"] as const;
export type TokenScopeName = (typeof TOKEN_SCOPE_NAMES)[number];

/**
 * The stored scope of a workspace's SCIM token (lib/team/scim): it opens /scim/v2 of its workspace
 * and nothing else, and no other token opens /scim/v2. Never offered by POST /api/v1/tokens.
 */
export const SCIM_TOKEN_SCOPE = "scim";

/** A stored scope string ("full", "read gateway", "gateway", "scim" …) read back. */
export function parseTokenScopes(stored: string): { api: TokenScope | null; gateway: boolean; scim: boolean } {
  if (stored === SCIM_TOKEN_SCOPE) return { api: null, gateway: false, scim: true };
  const names = stored.split(" ");
  const api = names.includes("full") ? "full" : names.includes("read") ? "read" : null;
  return { api, gateway: names.includes("gateway"), scim: false };
}

export function formatTokenScopes(scopes: readonly TokenScopeName[]): string {
  return TOKEN_SCOPE_NAMES.filter((s) => scopes.includes(s)).join(" ");
}

/** Who may reach a route: anyone (the route authenticates by other means), or a role and above. */
export type Access = "public" | Role;

export function roleRank(role: string): number {
  return ROLES.indexOf(role as Role);
}

export function roleAtLeast(role: string, min: Role): boolean {
  const rank = roleRank(role);
  return rank >= 0 && rank >= roleRank(min);
}

/** The role a request acts with: a read-only token caps its creator's role at viewer (an auditor, read-only already, stays one). */
export function effectiveRole(role: string, scope: TokenScope | undefined): Role {
  const known: Role = roleRank(role) >= 0 ? (role as Role) : "viewer";
  return scope === "read" && known !== "auditor" ? "viewer" : known;
}

/** Where a request came from, for the audit log. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** The authenticated caller of an API route. */
export interface Principal {
  userId: string;
  userName: string;
  workspaceId: string;
  /** The role this request acts with (a read-only token caps it at viewer). */
  role: Role;
  /** The member's own role in the workspace. */
  memberRole: Role;
  via: "session" | "token";
  tokenId?: string;
  /** A token's API scope (absent for a gateway-only token). */
  tokenScope?: TokenScope;
  /** Whether the token opens the MCP gateway endpoints (lib/gateway). */
  tokenGateway?: boolean;
  /** A workspace's SCIM token: it opens /scim/v2 only (lib/team/scim). */
  tokenScim?: boolean;
  client: ClientInfo;
}

/** What the console reads of a request outside its body: a Fetch Request is one (lib/api/reply.ts). */
export interface RequestHead {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly signal: AbortSignal;
}

export { AUDITOR_READS_UNDER, AUDITOR_ROUTES, ROUTE_ACCESS, accessFor } from "./matrix";

export { actionRole, auditorMayAct, deniedReason, gateOf, isAction, type Action } from "./actions";

/** The origins the operator trusts beside the console's own (SWITCHBOARD_TRUSTED_ORIGINS, comma-separated). */
export function operatorTrustedOrigins(): string[] {
  return [...config().trustedOrigins];
}

/** Members change what they made; admins and owners anything (notes, views, collections, monitors). */
export function assertOwnOrAdmin(principal: Pick<Principal, "userId" | "role">, authorId: string | null, what: string): void {
  if (authorId !== null && authorId === principal.userId) return;
  if (roleAtLeast(principal.role, "admin")) return;
  throw new SwitchboardError("forbidden", `Only the ${what}'s author or an admin can change it`, { requiredRole: "admin", role: principal.role });
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The one gate of every API route (lib/api/route.ts): the caller's role against the matrix's least
 * role, and a read-only token writes nothing anywhere, its user's own things included (workspaces,
 * tokens, profile, stars). The refusal to throw, or null when the request may go on.
 */
export function gateRefusal({ key, access, principal, method }: { key: string; access: Access; principal: Pick<Principal, "role" | "tokenScope">; method: string }): SwitchboardError | null {
  const readOnly = principal.tokenScope === "read";
  const write = !SAFE_METHODS.has(method.toUpperCase());
  if (principal.role === "auditor" && !(readOnly && write)) return auditorRefusal(key, access, method);
  if (access !== "public" && roleAtLeast(principal.role, access) && !(readOnly && write)) return null;
  const details = { requiredRole: access, role: principal.role, ...(readOnly && write ? { requiredScope: "full" } : {}) };
  if (readOnly && (write || access !== "viewer")) return new SwitchboardError("forbidden", "This API token is read-only", details);
  const article = principal.role === "admin" || principal.role === "owner" ? "an" : "a";
  return new SwitchboardError("forbidden", `This needs the ${access} role or higher; you are ${article} ${principal.role}`, details);
}

/**
 * Whether an auditor passes the gate: a viewer's reads, and the routes AUDITOR_ROUTES names
 * (the audit log's reads, their own read-only tokens); no other write, even one a viewer may make.
 */
export function auditorMay(key: string, access: Access, method: string): boolean {
  if ((AUDITOR_ROUTES as readonly string[]).includes(key)) return true;
  if (!SAFE_METHODS.has(method.toUpperCase())) return false;
  const path = key.slice(key.indexOf(" ") + 1);
  return access === "viewer" || path === AUDITOR_READS_UNDER || path.startsWith(`${AUDITOR_READS_UNDER}/`);
}

function auditorRefusal(key: string, access: Access, method: string): SwitchboardError | null {
  if (access !== "public" && auditorMay(key, access, method)) return null;
  const details = { requiredRole: access, role: "auditor" };
  if (!SAFE_METHODS.has(method.toUpperCase())) return new SwitchboardError("forbidden", "Auditors read; they change nothing", details);
  return new SwitchboardError("forbidden", `This needs the ${access} role or higher; you are an auditor`, details);
}
