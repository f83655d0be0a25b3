import { z } from "zod";
import { SCIM_MAPPABLE_ROLES } from "./index";

/** PATCH /api/v1/workspace `scimGroupRoles`: group display name → role (never owner); null clears it. */
export const ScimGroupRolesSchema = z
  .record(z.string().trim().min(1).max(256), z.enum(SCIM_MAPPABLE_ROLES))
  .refine((m) => Object.keys(m).length <= 200, { message: "At most 200 group mappings" })
  .nullable();
export type ScimGroupRoles = NonNullable<z.infer<typeof ScimGroupRolesSchema>>;

export const CreateScimTokenSchema = z.object({ name: z.string().trim().min(1).max(100).default("SCIM") });

// Entra ID sends booleans as strings ("False").
const ScimBoolean = z.union([z.boolean(), z.enum(["true", "false", "True", "False", "TRUE", "FALSE"]).transform((v) => v.toLowerCase() === "true")]);

/** A User as POST and PUT send it (and as a PATCH leaves it); attributes beyond these are kept as sent. */
export const ScimUserSchema = z
  .object({
    userName: z.string().trim().min(1).max(256),
    externalId: z.string().max(256).nullish(),
    active: ScimBoolean.default(true),
    displayName: z.string().max(256).nullish(),
    name: z.object({ formatted: z.string().max(256).nullish(), givenName: z.string().max(256).nullish(), familyName: z.string().max(256).nullish() }).passthrough().nullish(),
    emails: z.array(z.object({ value: z.string().max(320), primary: ScimBoolean.optional(), type: z.string().max(50).nullish() }).passthrough()).max(20).nullish(),
  })
  .passthrough();
export type ScimUserInput = z.infer<typeof ScimUserSchema>;

const MemberRef = z.object({ value: z.string().min(1).max(100), display: z.string().max(256).optional() }).passthrough();

export const ScimGroupSchema = z
  .object({
    displayName: z.string().trim().min(1).max(256),
    externalId: z.string().max(256).nullish(),
    members: z.array(MemberRef).max(10_000).nullish(),
  })
  .passthrough();
export type ScimGroupInput = z.infer<typeof ScimGroupSchema>;

export const ScimPatchSchema = z.object({
  schemas: z.array(z.string().max(200)).max(5).optional(),
  Operations: z
    .array(z.object({ op: z.string().max(20), path: z.string().max(1000).optional(), value: z.unknown().optional() }))
    .min(1)
    .max(200),
});
export type ScimPatchInput = z.infer<typeof ScimPatchSchema>;
