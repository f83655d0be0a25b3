import { z } from "zod";
import { AllowedNetworksSchema, type NetworkMode } from "@/lib/net";

export const CreateWorkspaceSchema = z.object({ name: z.string().trim().min(1).max(100) });
export type CreateWorkspace = z.infer<typeof CreateWorkspaceSchema>;

export interface WorkspaceDto {
  id: string;
  name: string;
  slug: string;
}

export const ThemeSchema = z.enum(["light", "dark", "system"]);
export type Theme = z.infer<typeof ThemeSchema>;

/** PATCH /api/v1/me – the caller's own preferences. */
export const UpdateMeSchema = z.object({ theme: ThemeSchema });
export type UpdateMe = z.infer<typeof UpdateMeSchema>;

export interface MeDto {
  /** `theme`: the person's choice, null until they make one (the browser's own applies then). */
  user: { id: string; name: string; email: string; theme: Theme | null };
  workspace: WorkspaceDto;
  role: string;
  workspaces: (WorkspaceDto & { role: string })[];
}

/** PATCH /api/v1/workspace – any subset; `retentionDays: null` keeps history forever, `redactionKeys: null` restores the default list. */
export const UpdateWorkspaceSchema = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  retentionDays: z.number().int().min(1).max(3650).nullable().optional(),
  publicSharesEnabled: z.boolean().optional(),
  redactionKeys: z.array(z.string().trim().min(1).max(100)).max(200).nullable().optional(),
  /** CIDRs, addresses, host names or `*.domain` the console may reach although its network policy refuses them. */
  allowedNetworks: AllowedNetworksSchema.optional(),
});
export type UpdateWorkspace = z.infer<typeof UpdateWorkspaceSchema>;

/** DELETE /api/v1/workspace – the workspace's exact name, typed to confirm. */
export const DeleteWorkspaceSchema = z.object({ confirm: z.string().max(200) });

export interface WorkspaceSettingsDto extends WorkspaceDto {
  /** Calls older than this many days are purged; null keeps them forever. */
  retentionDays: number | null;
  publicSharesEnabled: boolean;
  /** The effective list of field names masked in shared and exported data. */
  redactionKeys: string[];
  /** Whether that list is the default one (no list of the workspace's own). */
  redactionKeysDefault: boolean;
  /** The workspace's own allow-list for outbound connections. */
  allowedNetworks: string[];
  /** The console's outbound policy: its mode and what SWITCHBOARD_ALLOWED_NETWORKS allows everywhere. */
  network: { mode: NetworkMode; envAllowed: string[] };
  createdAt: string;
  counts: { members: number; servers: number; calls: number; pendingInvitations: number };
}

export const workspaceKeys = { me: () => ["me"] as const, settings: () => ["workspace-settings"] as const };
