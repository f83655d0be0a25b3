import type { VirtualTool } from "@/lib/domains/virtual-servers";
import type { BridgeMember } from "./scope";

// What a virtual server (/mcp/<slug>/<virtual-name>, lib/gateway/bridge/virtual.ts) offers: exactly
// its configured tools, under their `as` names, with their descriptions overridden.

/** A virtual server behind a bridge: its name (recorded on each call) and its tools. */
export interface VirtualSpec {
  name: string;
  tools: VirtualTool[];
}

type Item = Record<string, unknown>;

/**
 * The configured tools found in their servers' lists (`lists[i]`: `members[i]`'s tools), in the
 * configured order: a tool whose server is not behind the bridge (archived, deleted, unreachable)
 * or no longer lists it is left out.
 */
export function virtualTools(spec: VirtualSpec, members: BridgeMember[], lists: Item[][]): { name: string; original: string; member: BridgeMember; item: Item }[] {
  const byServer = new Map(members.map((member, i) => [member.server.id, { member, tools: new Map(lists[i]!.filter((t) => typeof t.name === "string").map((t) => [t.name as string, t])) }]));
  return spec.tools.flatMap((entry) => {
    const found = byServer.get(entry.serverId);
    const item = found?.tools.get(entry.tool);
    if (!found || !item) return [];
    const name = entry.as ?? entry.tool;
    return [{ name, original: entry.tool, member: found.member, item: { ...item, name, ...(entry.description === undefined ? {} : { description: entry.description }) } }];
  });
}
