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

/** `POST /api/v1/workspace/sso/provider` (owner): the workspace's own OIDC identity provider. */
export const RegisterSsoProviderSchema = z.object({
  name: z.string().trim().min(1).max(60),
  issuer: z.url().max(500),
  clientId: z.string().trim().min(1).max(500),
  clientSecret: z.string().min(1).max(2000),
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .max(200)
    .regex(/^(?=.{1,200}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "A domain name such as example.com"),
});
export type RegisterSsoProvider = z.infer<typeof RegisterSsoProviderSchema>;
