// Virtual servers (docs/gateway.md, "Virtual servers"): an endpoint /mcp/<slug>/<name> composed of
// chosen tools of several workspace servers, each optionally renamed and described anew.

/** At most this many tools in one virtual server. */
export const MAX_VIRTUAL_TOOLS = 200;

/** One tool of a virtual server as stored and as the API takes it. */
export interface VirtualTool {
  serverId: string;
  /** The tool's name on its server. */
  tool: string;
  /** The name hosts see (absent: the tool's own). */
  as?: string;
  /** The description hosts see (absent: the server's own). */
  description?: string;
}

/** Why a stored tool is not served now: its server was archived or deleted. */
export type VirtualToolProblem = "server_archived" | "server_deleted";

export interface VirtualToolDto extends VirtualTool {
  /** The server's name now; null when it is deleted. */
  serverName: string | null;
  /** Set when the tool is not served (kept so that restoring the server brings it back). */
  problem: VirtualToolProblem | null;
}

export interface VirtualServerDto {
  id: string;
  name: string;
  tools: VirtualToolDto[];
  /** The endpoint's path, /mcp/<workspace-slug>/<name> (URL-encoded). */
  path: string;
  /** A server of the same name is offered at the gateway: its endpoint wins the path. */
  shadowedBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The name a host sees for a tool of a virtual server. */
export function servedName(tool: VirtualTool): string {
  return tool.as ?? tool.tool;
}

export const virtualServerKeys = {
  all: () => ["virtual-servers"] as const,
  list: () => ["virtual-servers", "list"] as const,
};
