import { z } from "zod";
import { ROLES, TOKEN_SCOPE_NAMES, TOKEN_SCOPES } from "./index";

export const RoleSchema = z.enum(ROLES);
export const TokenScopeSchema = z.enum(TOKEN_SCOPES);

/**
 * A token's scopes: an API scope ("full" or "read", at most one) and/or "gateway" (the MCP
 * endpoints under /mcp, lib/gateway). A token with only "gateway" opens no API route.
 */
export const TokenScopesSchema = z
  .array(z.enum(TOKEN_SCOPE_NAMES))
  .min(1)
  .max(3)
  .refine((scopes) => !(scopes.includes("full") && scopes.includes("read")), { message: 'A token is either "full" or "read", not both' });
