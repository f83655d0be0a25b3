import { z } from "zod";

/** Workspace roles, weakest first. Each role can do everything the ones before it can. */
export const ROLES = ["viewer", "member", "admin", "owner"] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** What an API token may do: everything its creator's role allows, or reading only. */
export const TokenScopeSchema = z.enum(["full", "read"]);
export type TokenScope = z.infer<typeof TokenScopeSchema>;

/**
 * A token's scopes: an API scope ("full" or "read", at most one) and/or "gateway" (the MCP
 * endpoints under /mcp, lib/gateway). A token with only "gateway" opens no API route.
 */
export const TokenScopesSchema = z
  .array(z.enum(["full", "read", "gateway"]))
  .min(1)
  .max(3)
  .refine((scopes) => !(scopes.includes("full") && scopes.includes("read")), { message: 'A token is either "full" or "read", not both' });
export type TokenScopeName = z.infer<typeof TokenScopesSchema>[number];

/** A stored scope string ("full", "read gateway", "gateway" …) read back. */
export function parseTokenScopes(stored: string): { api: TokenScope | null; gateway: boolean } {
  const names = stored.split(" ");
  const api = names.includes("full") ? "full" : names.includes("read") ? "read" : null;
  return { api, gateway: names.includes("gateway") };
}

export function formatTokenScopes(scopes: readonly TokenScopeName[]): string {
  return ["full", "read", "gateway"].filter((s) => scopes.includes(s as TokenScopeName)).join(" ");
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

/** Plain words for the UI's "why is this disabled" hints. */
export function needsRole(min: Role): string {
  return min === "viewer" ? "" : `Needs the ${min} role${min === "owner" ? "" : " or higher"}`;
}

export { ROUTE_ACCESS, accessFor, routeKey } from "./matrix";
