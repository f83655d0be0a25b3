import { config } from "@/lib/core/config";
import { SwitchboardError } from "@/lib/core/errors";

/** Workspace roles, weakest first. Each role can do everything the ones before it can. */
export const ROLES = ["viewer", "member", "admin", "owner"] as const;
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

/** A stored scope string ("full", "read gateway", "gateway" …) read back. */
export function parseTokenScopes(stored: string): { api: TokenScope | null; gateway: boolean } {
  const names = stored.split(" ");
  const api = names.includes("full") ? "full" : names.includes("read") ? "read" : null;
  return { api, gateway: names.includes("gateway") };
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

/** The role a request acts with: a read-only token caps its creator's role at viewer. */
export function effectiveRole(role: string, scope: TokenScope | undefined): Role {
  const known: Role = roleRank(role) >= 0 ? (role as Role) : "viewer";
  return scope === "read" ? "viewer" : known;
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
  client: ClientInfo;
}

/** What the console reads of a request outside its body: a Fetch Request is one (lib/api/reply.ts). */
export interface RequestHead {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly signal: AbortSignal;
}

export { ROUTE_ACCESS, accessFor } from "./matrix";

export { actionRole, deniedReason, gateOf, isAction, type Action } from "./actions";

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
export function gateRefusal({ access, principal, method }: { access: Access; principal: Pick<Principal, "role" | "tokenScope">; method: string }): SwitchboardError | null {
  const readOnly = principal.tokenScope === "read";
  const write = !SAFE_METHODS.has(method.toUpperCase());
  if (access !== "public" && roleAtLeast(principal.role, access) && !(readOnly && write)) return null;
  const details = { requiredRole: access, role: principal.role, ...(readOnly && write ? { requiredScope: "full" } : {}) };
  if (readOnly && (write || access !== "viewer")) return new SwitchboardError("forbidden", "This API token is read-only", details);
  const article = principal.role === "admin" || principal.role === "owner" ? "an" : "a";
  return new SwitchboardError("forbidden", `This needs the ${access} role or higher; you are ${article} ${principal.role}`, details);
}
