import "server-only";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { isUniqueViolation } from "@/lib/core/db/client";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { gatewayPath } from "@/lib/identity/auth";
import { MAX_VIRTUAL_TOOLS, servedName, type VirtualServerDto, type VirtualTool, type VirtualToolDto } from "./index";
import type { CreateVirtualServer, UpdateVirtualServer } from "./schemas";
import * as q from "./queries";

type Where = Pick<Principal, "workspaceId">;

const invalid = (path: (string | number)[], message: string) => new SwitchboardError("unprocessable", `${path.join(".")}: ${message}`, { path });

// A path segment of the gateway, as a server's name is: trimmed, 1 to 100 characters, no control characters.
const CONTROL = /[\u0000-\u001f\u007f]/;
const SERVED_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function checkName(raw: string): string {
  const name = raw.trim();
  if (!name || name.length > 100) throw invalid(["name"], "1 to 100 characters (it is the last segment of the endpoint's path)");
  if (CONTROL.test(name)) throw invalid(["name"], "must not contain control characters");
  // A dot segment: no request can reach /mcp/<slug>/.. (the request front refuses dot segments, and "%2E%2E" as well).
  if (name === "." || name === "..") throw invalid(["name"], 'must not be "." or ".." (the endpoint\'s path could not be reached)');
  return name;
}

/** The rules the schema leaves to the service: at most 200 tools, served names valid and unique, active servers of this workspace. */
async function checkTools(where: Where, tools: VirtualTool[]): Promise<VirtualTool[]> {
  if (tools.length > MAX_VIRTUAL_TOOLS) throw invalid(["tools"], `at most ${MAX_VIRTUAL_TOOLS} tools`);
  const seen = new Set<string>();
  tools.forEach((tool, i) => {
    if (tool.as !== undefined && !SERVED_NAME.test(tool.as)) throw invalid(["tools", i, "as"], "1 to 128 of A-Z a-z 0-9 _ - .");
    const name = servedName(tool);
    if (seen.has(name)) throw invalid(["tools", i, tool.as === undefined ? "tool" : "as"], `two tools would be served as "${name}": rename one with "as"`);
    seen.add(name);
  });
  const servers = new Map((await q.findServers({ ...where, ids: [...new Set(tools.map((t) => t.serverId))] })).map((s) => [s.id, s]));
  tools.forEach((tool, i) => {
    const server = servers.get(tool.serverId);
    if (!server) throw invalid(["tools", i, "serverId"], `no server "${tool.serverId}" in this workspace`);
    if (server.archivedAt) throw invalid(["tools", i, "serverId"], `the server "${server.name}" is archived`);
  });
  return tools.map(({ serverId, tool, as, description }) => ({ serverId, tool, ...(as === undefined ? {} : { as }), ...(description === undefined ? {} : { description }) }));
}

/** A server's path and a virtual server's are the same; the name of any active server is refused (the server keeps its endpoint). */
async function checkNameFree(where: Where, name: string): Promise<void> {
  const server = await q.findServerNamed({ ...where, name });
  if (server) throw new SwitchboardError("conflict", `A server named "${name}" exists: its gateway endpoint has that path`, { path: ["name"] });
}

const nameTaken = (name: string) => new SwitchboardError("conflict", `A virtual server named "${name}" exists already`, { path: ["name"] });

export function parseTools(text: string): VirtualTool[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as VirtualTool[]) : [];
  } catch {
    return [];
  }
}

async function toDtos(where: Where, rows: q.VirtualServerRow[]): Promise<VirtualServerDto[]> {
  const lists = rows.map((row) => parseTools(row.tools));
  const ids = [...new Set(lists.flat().map((t) => t.serverId))];
  const [servers, offered, slug] = await Promise.all([q.findServers({ ...where, ids }), q.offeredServerNames(where), q.findWorkspaceSlug(where)]);
  const byId = new Map(servers.map((s) => [s.id, s]));
  const offeredNames = new Set(offered);
  return rows.map((row, i) => ({
    id: row.id,
    name: row.name,
    tools: lists[i]!.map((tool): VirtualToolDto => {
      const server = byId.get(tool.serverId);
      return { ...tool, serverName: server?.name ?? null, problem: !server ? "server_deleted" : server.archivedAt ? "server_archived" : null };
    }),
    path: gatewayPath(slug, row.name),
    shadowedBy: offeredNames.has(row.name) ? row.name : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

async function toDto(principal: Principal, row: q.VirtualServerRow): Promise<VirtualServerDto> {
  return (await toDtos(principal, [row]))[0]!;
}

export async function listVirtualServers(principal: Principal): Promise<VirtualServerDto[]> {
  return toDtos(principal, await q.listVirtualServers(principal));
}

async function requireVirtualServer(principal: Principal, id: string): Promise<q.VirtualServerRow> {
  const row = await q.findVirtualServer({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Virtual server");
  return row;
}

export async function getVirtualServer(principal: Principal, id: string): Promise<VirtualServerDto> {
  return toDto(principal, await requireVirtualServer(principal, id));
}

export async function createVirtualServer(principal: Principal, input: CreateVirtualServer): Promise<VirtualServerDto> {
  const name = checkName(input.name);
  const tools = await checkTools(principal, input.tools);
  await checkNameFree(principal, name);
  const row = await q.insertVirtualServer({ data: { workspaceId: principal.workspaceId, name, tools: JSON.stringify(tools) } }).catch((err: unknown) => {
    throw isUniqueViolation(err) ? nameTaken(name) : err;
  });
  await audit(principal, { action: "virtual_server.created", target: { type: "virtual_server", id: row.id, name }, details: { tools: tools.length } });
  return toDto(principal, row);
}

export async function updateVirtualServer(principal: Principal, id: string, input: UpdateVirtualServer): Promise<VirtualServerDto> {
  const existing = await requireVirtualServer(principal, id);
  const name = input.name === undefined ? undefined : checkName(input.name);
  const tools = input.tools === undefined ? undefined : await checkTools(principal, input.tools);
  if (name !== undefined && name !== existing.name) await checkNameFree(principal, name);
  const row = await q.updateVirtualServer({ id, data: { name, tools: tools === undefined ? undefined : JSON.stringify(tools) } }).catch((err: unknown) => {
    throw isUniqueViolation(err) ? nameTaken(name ?? existing.name) : err;
  });
  const changed = (["name", "tools"] as const).filter((k) => input[k] !== undefined);
  await audit(principal, { action: "virtual_server.updated", target: { type: "virtual_server", id, name: row.name }, details: { changed, ...(name !== undefined && name !== existing.name ? { from: existing.name } : {}) } });
  return toDto(principal, row);
}

export async function deleteVirtualServer(principal: Principal, id: string): Promise<void> {
  const existing = await requireVirtualServer(principal, id);
  await q.deleteVirtualServer({ id });
  await audit(principal, { action: "virtual_server.deleted", target: { type: "virtual_server", id, name: existing.name } });
}

/** What the gateway serves at /mcp/<slug>/<name>, when that names a virtual server: its tools whose servers are active (the gateway skips the rest). */
export async function findVirtualRoute(slug: string, name: string): Promise<{ workspaceId: string; workspaceSlug: string; name: string; tools: VirtualTool[] } | null> {
  const found = await q.findVirtualRoute({ slug, name });
  if (!found) return null;
  return { workspaceId: found.workspace.id, workspaceSlug: found.workspace.slug, name: found.virtual.name, tools: parseTools(found.virtual.tools) };
}
