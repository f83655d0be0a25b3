import "server-only";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { SwitchboardError } from "@/lib/core/errors";
import { assertUrlAllowed } from "@/lib/core/net/server";
import { headerColumns, toDto } from "./dto";
import { mcpServersConfig, type ImportResult, type McpServersEntry } from "./index";
import { parseMcpServersConfig } from "./import";
import * as q from "./queries";
import { maxServers, serverRoom } from "./quota";

// The `mcpServers` file other MCP hosts use: the workspace's servers out, and in.

/**
 * The workspace's active servers as an `mcpServers` file: remote servers with their URL and
 * header names (values are `${VAR}` placeholders), stdio servers as their imported command.
 */
export async function exportServers(principal: Principal): Promise<{ mcpServers: Record<string, McpServersEntry> }> {
  // The demo server lives inside this console: no other host can reach it.
  const servers = (await q.listServers({ workspaceId: principal.workspaceId })).map(toDto).filter((s) => s.kind !== "demo");
  await audit(principal, { action: "servers.exported", target: { type: "workspace", id: principal.workspaceId }, details: { count: servers.length } });
  return mcpServersConfig(servers);
}

export async function importServers(principal: Principal, config: string): Promise<ImportResult> {
  let entries;
  try {
    entries = parseMcpServersConfig(config);
  } catch (err) {
    throw new SwitchboardError("bad_request", (err as Error).message);
  }
  const taken = new Set((await q.findServerNames({ workspaceId: principal.workspaceId })).map((s) => s.name));
  let room = await serverRoom(principal.workspaceId);
  const result: ImportResult = { created: [], skipped: [] };
  for (const entry of entries) {
    if (entry.kind === "invalid") {
      result.skipped.push({ name: entry.name, reason: entry.reason });
      continue;
    }
    if (room <= 0) {
      result.skipped.push({ name: entry.name, reason: `The workspace's limit of ${maxServers()} servers is reached` });
      continue;
    }
    if (taken.has(entry.name)) {
      result.skipped.push({ name: entry.name, reason: "A server with this name exists already" });
      continue;
    }
    const refused = entry.kind === "http" ? await assertUrlAllowed({ url: entry.url, workspaceId: principal.workspaceId }).catch((err: Error) => err.message) : undefined;
    if (refused) {
      result.skipped.push({ name: entry.name, reason: refused });
      continue;
    }
    taken.add(entry.name);
    const data =
      entry.kind === "http"
        ? { kind: "http", url: entry.url, transport: entry.transport, ...headerColumns(entry.headers) }
        : { kind: "stdio", stdioConfig: JSON.stringify(entry.stdio) };
    const row = await q.createServer({ data: { workspaceId: principal.workspaceId, name: entry.name, ...data } });
    if (row) {
      result.created.push(toDto(row));
      room--;
    }
    else result.skipped.push({ name: entry.name, reason: "A server with this name exists already" });
  }
  await audit(principal, {
    action: "servers.imported",
    details: { created: result.created.map((s) => s.name), skipped: result.skipped.map((s) => s.name) },
  });
  return result;
}
