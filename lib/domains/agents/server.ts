import "server-only";
import type { RequestHead } from "@/lib/core/access";
import crypto from "node:crypto";
import { roleAtLeast } from "@/lib/core/access";
import { audit, auditAs } from "@/lib/core/audit/server";
import { consoleOrigin } from "@/lib/identity/auth";
import type { ClientInfo, Principal } from "@/lib/core/access";
import { hashToken, newToken } from "@/lib/core/crypto";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { isAgentOnline, isAgentServerOnline, revokeLink, serverOutput } from "@/lib/relay/server";
import { archiveAgentServers, disconnect, getServer } from "@/lib/domains/servers/server";
import type { ServerDto } from "@/lib/domains/servers";
import { RELAY_PATH } from "@/lib/relay/protocol";
import { PAIRING_TTL_MS, type AgentDto, type AgentSelfDto, type CreatePairing, type PairAgent, type PairingDto } from "./index";
import * as q from "./queries";

// Crockford-style alphabet without look-alikes (0/O, 1/I/L, U).
const ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789";

/** A one-time code like `K7QM-2XWD-93PH` (about 59 bits). */
function newPairingCode(): string {
  const bytes = crypto.randomBytes(12);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}

/** Codes are compared case- and dash-insensitively (people retype them). */
function normaliseCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

/** Creates a pairing code and the command that uses it. */
export async function createPairing(principal: Principal, input: CreatePairing, consoleUrl: RequestHead): Promise<PairingDto> {
  const code = newPairingCode();
  const expiresAt = new Date(Date.now() + PAIRING_TTL_MS);
  const name = input.name ?? "";
  await q.createPairing({ workspaceId: principal.workspaceId, codeHash: hashToken(normaliseCode(code)), name, createdBy: principal.userId, expiresAt });
  const origin = consoleOrigin(consoleUrl);
  return { code, name, expiresAt: expiresAt.toISOString(), command: `npx -y ${origin}/agent.tgz pair ${code} --console ${origin}` };
}

/** Spends a pairing code (called by the agent, no user). The token is returned this once. */
export async function pairAgent(input: PairAgent, client: ClientInfo) {
  const token = newToken("sba");
  const redeemed = await q.redeemPairing({
    codeHash: hashToken(normaliseCode(input.code)),
    tokenHash: hashToken(token),
    name: input.name,
    hostname: input.hostname,
    version: input.version,
  });
  if (!redeemed) throw new SwitchboardError("unauthorized", "This pairing code is unknown, used or expired; create a new one in the console");
  const { agent } = redeemed;
  await auditAs(
    { workspaceId: agent.workspaceId, type: "agent", id: agent.id, name: agent.name, client },
    { action: "agent.paired", target: { type: "agent", id: agent.id, name: agent.name }, details: { pairedBy: agent.createdBy, hostname: agent.hostname, version: agent.version } },
  );
  return { agent: { id: redeemed.agent.id, name: redeemed.agent.name }, workspace: redeemed.workspace, token, relayPath: RELAY_PATH };
}

export async function listAgents(principal: Principal): Promise<AgentDto[]> {
  return (await q.listAgents({ workspaceId: principal.workspaceId })).map(toDto);
}

export async function getAgent(principal: Principal, id: string): Promise<AgentDto> {
  const row = await q.findAgent({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Agent");
  return toDto(row);
}

/**
 * Revokes an agent: its token stops working, its socket closes at once and its servers are
 * archived (history kept; pairing again and announcing them brings them back). Members may revoke
 * the agents they paired, admins anybody's.
 */
export async function revokeAgent(principal: Principal, id: string): Promise<void> {
  const row = await q.findAgent({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Agent");
  if (!roleAtLeast(principal.role, "admin") && row.createdBy !== principal.userId) {
    throw new SwitchboardError("forbidden", "Members can revoke only the agents they paired; ask an admin to revoke this one");
  }
  if (row.revokedAt) return;
  await q.revokeAgent({ workspaceId: principal.workspaceId, id });
  revokeLink(id);
  const archived = await archiveAgentServers({ workspaceId: principal.workspaceId, agentId: id, by: principal.userId });
  await audit(principal, { action: "agent.revoked", target: { type: "agent", id, name: row.name }, details: { archivedServers: archived } });
}

/**
 * Re-binds a server served through an agent (admin only): to another agent of the workspace, which
 * serves it from its next hello, or released (`agentId: null`) for the next agent that announces
 * its name. Otherwise the agent that first claimed a name keeps it: no other agent takes it over.
 */
export async function bindServerToAgent(principal: Principal, serverId: string, agentId: string | null): Promise<ServerDto> {
  const server = await getServer(principal, serverId);
  if (server.kind === "http" || server.kind === "demo") throw new SwitchboardError("bad_request", `"${server.name}" is ${server.kind === "http" ? "an HTTP" : "the demo"} server; only servers run by an agent are bound to one`);
  const previous = server.agentId ? await q.findAgent({ workspaceId: principal.workspaceId, id: server.agentId }) : null;
  const next = agentId ? await q.findAgent({ workspaceId: principal.workspaceId, id: agentId }) : null;
  if (agentId && (!next || next.revokedAt)) throw new SwitchboardError("unprocessable", "agentId must name an agent of this workspace that is not revoked");
  await disconnect(principal, serverId);
  await q.bindServer({ workspaceId: principal.workspaceId, serverId, agentId });
  await audit(principal, {
    action: "server.agent_bound",
    target: { type: "server", id: serverId, name: server.name },
    details: { from: previous?.name ?? null, to: next?.name ?? null },
  });
  return getServer(principal, serverId);
}

/** The agent behind an agent token (for the agent's own `status` and `unpair`). */
async function authenticateAgent(request: RequestHead) {
  const header = request.headers.get("authorization") ?? "";
  const token = header.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : "";
  const agent = token ? await q.findAgentByTokenHash({ tokenHash: hashToken(token) }) : null;
  if (!agent) throw new SwitchboardError("unauthorized", "Unknown or revoked agent token");
  return agent;
}

export async function agentSelf(request: RequestHead): Promise<AgentSelfDto> {
  const agent = await authenticateAgent(request);
  return { agent: { id: agent.id, name: agent.name, status: isAgentOnline(agent.id) ? "online" : "offline" }, workspace: agent.workspace };
}

/** The agent unpairs itself: like a revocation, its servers are archived. */
export async function revokeSelf(request: RequestHead, client: ClientInfo): Promise<void> {
  const agent = await authenticateAgent(request);
  await q.revokeAgent({ workspaceId: agent.workspaceId, id: agent.id });
  revokeLink(agent.id);
  const archived = await archiveAgentServers({ workspaceId: agent.workspaceId, agentId: agent.id, by: null });
  await auditAs(
    { workspaceId: agent.workspaceId, type: "agent", id: agent.id, name: agent.name, client },
    { action: "agent.revoked", target: { type: "agent", id: agent.id, name: agent.name }, details: { archivedServers: archived, by: "the agent itself (unpair)" } },
  );
}

function toDto(row: q.AgentRow): AgentDto {
  const online = isAgentOnline(row.id);
  return {
    id: row.id,
    name: row.name,
    hostname: row.hostname,
    version: row.version,
    status: row.revokedAt ? "revoked" : online ? "online" : "offline",
    lastSeenAt: online ? new Date().toISOString() : (row.lastSeenAt?.toISOString() ?? null),
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdBy: row.createdBy,
    servers: row.servers
      .filter((s) => s.kind === "agent")
      .map((s) => ({ id: s.id, name: s.name, online: isAgentServerOnline(row.id, s.name), ...serverOutput(row.id, s.name) })),
  };
}
