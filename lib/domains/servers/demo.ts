import "server-only";
import { audit } from "@/lib/core/audit/server";
import type { Principal } from "@/lib/core/access";
import { DEMO_SERVER_NAME } from "@/lib/domains/demo";
import { SwitchboardError } from "@/lib/core/errors";
import { toDto } from "./dto";
import type { ServerDto } from "./index";
import * as q from "./queries";
import { assertServerRoom } from "./quota";

/**
 * Adds the built-in demo server (kind "demo": served by the console itself over an in-memory
 * transport, no URL, nothing spawned). A workspace has at most one: asking again answers the
 * one it has (`created: false`). Its name is "demo", or "demo-2"… when that name is taken.
 */
export async function addDemoServer(principal: Principal): Promise<{ server: ServerDto; created: boolean }> {
  const existing = await q.findDemoServer({ workspaceId: principal.workspaceId });
  if (existing) return { server: toDto(existing), created: false };
  await assertServerRoom(principal.workspaceId);
  const taken = new Set((await q.findServerNames({ workspaceId: principal.workspaceId })).map((s) => s.name));
  let name = DEMO_SERVER_NAME;
  for (let i = 2; taken.has(name); i++) name = `${DEMO_SERVER_NAME}-${i}`;
  const row = await q.createServer({ data: { workspaceId: principal.workspaceId, name, kind: "demo", url: null, timeoutMs: 30_000 } });
  if (!row) throw new SwitchboardError("conflict", `A server named "${name}" was added at the same moment; try again`);
  await audit(principal, { action: "server.created", target: { type: "server", id: row.id, name: row.name }, details: { kind: "demo" } });
  return { server: toDto(row), created: true };
}
