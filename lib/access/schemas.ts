import { z } from "zod";
import { ROLES, TOKEN_SCOPES } from "./index";

export const RoleSchema = z.enum(ROLES);
export const TokenScopeSchema = z.enum(TOKEN_SCOPES);
