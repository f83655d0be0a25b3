import { z } from "zod";

// Isomorphic door of lib/gateway: the exposure settings, connected clients and endpoint paths.

export const ExposureSchema = z.object({
  enabled: z.boolean(),
  /** The tool names offered (null or absent: every tool the server lists). */
  tools: z.array(z.string().min(1).max(200)).max(1000).nullable().optional(),
  /** Offer only tools annotated readOnlyHint. */
  readOnly: z.boolean().optional(),
  /** Calls per minute allowed to one token or OAuth grant (null or absent: no limit). */
  rateLimitPerMinute: z.number().int().min(1).max(100_000).nullable().optional(),
});
export type ExposureInput = z.infer<typeof ExposureSchema>;

export interface ExposureDto {
  serverId: string;
  enabled: boolean;
  tools: string[] | null;
  readOnly: boolean;
  rateLimitPerMinute: number | null;
  /** The endpoint's path on the console: /mcp/<workspace-slug>/<server-name>. */
  path: string;
  updatedAt: string | null;
}

export interface ConnectedClientDto {
  id: string;
  userId: string;
  userName: string | null;
  clientName: string | null;
  clientVersion: string | null;
  protocolVersion: string | null;
  /** How the host signed in: an API token with the gateway scope, or an OAuth grant. */
  via: "token" | "oauth";
  connectedAt: string;
  lastSeenAt: string;
  endedAt: string | null;
  endReason: string | null;
}

/** The endpoint path of a server (names URL-encoded), or of the workspace's aggregated endpoint. */
export function gatewayPath(workspaceSlug: string, serverName?: string): string {
  return `/mcp/${encodeURIComponent(workspaceSlug)}${serverName === undefined ? "" : `/${encodeURIComponent(serverName)}`}`;
}

export const gatewayKeys = {
  exposure: (serverId: string) => ["gateway", "exposure", serverId] as const,
  clients: (serverId: string) => ["gateway", "clients", serverId] as const,
};
