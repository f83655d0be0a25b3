import { z } from "zod";
import { TokenScopeSchema, TokenScopesSchema } from "@/lib/core/access/schemas";

export const SetupSchema = z.object({
  name: z.string().trim().min(1).max(100),
  email: z.email().max(200),
  password: z.string().min(8).max(128),
  workspaceName: z.string().trim().min(1).max(100).default("Default"),
  /** The one-time code from the console's log; needed unless set-up comes from this machine. */
  setupCode: z.string().trim().max(40).optional(),
});
export type Setup = z.infer<typeof SetupSchema>;

export const CreateTokenSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    /** "read": the token can only read, whatever its creator's role. */
    scope: TokenScopeSchema.optional(),
    /** Instead of scope: any of "full" | "read" and "gateway" (the MCP endpoints under /mcp). */
    scopes: TokenScopesSchema.optional(),
  })
  .refine((body) => !(body.scope && body.scopes), { message: "Send scope or scopes, not both" })
  .transform(({ name, scope, scopes }) => ({ name, scopes: scopes ?? [scope ?? "full"] }));
export type CreateToken = z.infer<typeof CreateTokenSchema>;
