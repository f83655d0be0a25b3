import { z } from "zod";
import { AllowedNetworksSchema } from "@/lib/core/net/schemas";
import { THEMES } from "./index";

export const ThemeSchema = z.enum(THEMES);

export const CreateWorkspaceSchema = z.object({ name: z.string().trim().min(1).max(100) });

/** PATCH /api/v1/me – the caller's own preferences. */
export const UpdateMeSchema = z.object({ theme: ThemeSchema });
export type UpdateMe = z.infer<typeof UpdateMeSchema>;

/** PATCH /api/v1/workspace – any subset; `retentionDays: null` keeps history forever, `redactionKeys: null` restores the default list. */
export const UpdateWorkspaceSchema = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  retentionDays: z.number().int().min(1).max(3650).nullable().optional(),
  /** Audit rows older than this many days are purged (null: kept forever), unless `legalHold` (owner only) is on. */
  auditRetentionDays: z.number().int().min(1).max(3650).nullable().optional(),
  legalHold: z.boolean().optional(),
  publicSharesEnabled: z.boolean().optional(),
  redactionKeys: z.array(z.string().trim().min(1).max(100)).max(200).nullable().optional(),
  /** CIDRs, addresses, host names or `*.domain` the console may reach although its network policy refuses them. */
  allowedNetworks: AllowedNetworksSchema.optional(),
  /** What a call no policy rule matches gets (lib/domains/policies; versioned with the rules). */
  policyDefault: z.enum(["allow", "deny"]).optional(),
});
export type UpdateWorkspace = z.infer<typeof UpdateWorkspaceSchema>;

/** DELETE /api/v1/workspace – the workspace's exact name, typed to confirm. */
export const DeleteWorkspaceSchema = z.object({ confirm: z.string().max(200) });
