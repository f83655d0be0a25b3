import type { NetworkMode } from "@/lib/core/net";
export type { UpdateMe, UpdateWorkspace } from "./schemas";

export interface WorkspaceDto {
  id: string;
  name: string;
  slug: string;
}

export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];
/** The cookie proxy.ts sets on every page response to the signed-in person's saved theme (components/theme/account-theme-script.tsx reads it). */
export const THEME_COOKIE = "sb-theme";

export interface MeDto {
  /** `theme`: the person's choice, null until they make one (the browser's own applies then). */
  user: { id: string; name: string; email: string; theme: Theme | null };
  workspace: WorkspaceDto;
  role: string;
  workspaces: (WorkspaceDto & { role: string })[];
}

export interface WorkspaceSettingsDto extends WorkspaceDto {
  /** Calls older than this many days are purged; null keeps them forever. */
  retentionDays: number | null;
  /** Audit rows older than this many days are purged (null: kept forever); suspended while `legalHold` is on. */
  auditRetentionDays: number | null;
  legalHold: boolean;
  publicSharesEnabled: boolean;
  /** The effective list of field names masked in shared and exported data. */
  redactionKeys: string[];
  /** Whether that list is the default one (no list of the workspace's own). */
  redactionKeysDefault: boolean;
  /** The workspace's own allow-list for outbound connections (entries outside `network.envAllowed` grant nothing). */
  allowedNetworks: string[];
  /** The console's outbound policy: its mode and what SWITCHBOARD_ALLOWED_NETWORKS lets a workspace choose from. */
  network: { mode: NetworkMode; envAllowed: string[] };
  /** What a call no policy rule matches gets (docs/governance.md). */
  policyDefault: "allow" | "deny";
  createdAt: string;
  counts: { members: number; servers: number; calls: number; pendingInvitations: number };
}

export const workspaceKeys = { me: () => ["me"] as const, settings: () => ["workspace-settings"] as const };
