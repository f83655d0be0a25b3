// Isomorphic door of lib/gateway: the exposure settings, connected clients and endpoint paths.

export { gatewayPath } from "@/lib/identity/auth";

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

export const gatewayKeys = {
  exposure: (serverId: string) => ["gateway", "exposure", serverId] as const,
  clients: (serverId: string) => ["gateway", "clients", serverId] as const,
};

export type HostId = "claude-code" | "claude-desktop" | "cursor" | "vscode";

interface HostConfig {
  host: HostId;
  label: string;
  /** Where it goes, in plain words. */
  where: string;
  text: string;
}

/**
 * Ready-to-paste configuration for the hosts people use. With a token (an API token with the
 * gateway scope) the host sends it as a header; without, the host signs in with OAuth itself.
 */
export function hostConfigs(serverName: string, url: string, token?: string): HostConfig[] {
  const key = serverName.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "switchboard";
  const auth = token ? { Authorization: `Bearer ${token}` } : undefined;
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const quoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return [
    {
      host: "claude-code",
      label: "Claude Code",
      where: "Run in a terminal",
      text: `claude mcp add --transport http ${quoted(key)} ${quoted(url)}${token ? ` --header ${quoted(`Authorization: Bearer ${token}`)}` : ""}`,
    },
    {
      host: "claude-desktop",
      label: "Claude Desktop",
      where: token ? "claude_desktop_config.json (through mcp-remote, which needs Node)" : "Settings → Connectors → Add custom connector, with this URL",
      text: token
        ? json({ mcpServers: { [key]: { command: "npx", args: ["-y", "mcp-remote", url, "--header", "Authorization:${SWITCHBOARD_TOKEN}"], env: { SWITCHBOARD_TOKEN: `Bearer ${token}` } } } })
        : url,
    },
    { host: "cursor", label: "Cursor", where: "~/.cursor/mcp.json", text: json({ mcpServers: { [key]: { url, ...(auth ? { headers: auth } : {}) } } }) },
    { host: "vscode", label: "VS Code", where: ".vscode/mcp.json", text: json({ servers: { [key]: { type: "http", url, ...(auth ? { headers: auth } : {}) } } }) },
  ];
}
export type { ExposureInput } from "./schemas";
