import { z } from "zod";

/** `PUT /api/v1/me/identity-tokens`: an ID token the caller holds from an enterprise IdP (its `iss` must be `issuer`). */
export const SaveIdentityTokenSchema = z.object({
  issuer: z.url().max(500),
  idToken: z.string().trim().min(20).max(20_000),
});
export type SaveIdentityToken = z.infer<typeof SaveIdentityTokenSchema>;

/** `PATCH /api/v1/workspace/sso` (owner). */
export const UpdateWorkspaceSsoSchema = z
  .object({
    ssoRequired: z.boolean().optional(),
    ssoDefaultRole: z.enum(["viewer", "member", "admin"]).optional(),
  })
  .refine((v) => v.ssoRequired !== undefined || v.ssoDefaultRole !== undefined, { message: "Send ssoRequired or ssoDefaultRole" });
export type UpdateWorkspaceSso = z.infer<typeof UpdateWorkspaceSsoSchema>;
