import { prisma } from "@/lib/core/db/client";
import { forgetCache } from "@/lib/core/runtime";

// Imported by lib/relay (which runs outside Next, in lib/start's graph) as well as by ./server.ts,
// so this file must not import "server-only".

const agentInclude = { servers: { select: { id: true, name: true, kind: true }, orderBy: { name: "asc" as const } } };

export function createPairing({ workspaceId, codeHash, name, createdBy, expiresAt }: { workspaceId: string; codeHash: string; name: string; createdBy: string; expiresAt: Date }) {
  return prisma.agentPairing.create({ data: { workspaceId, codeHash, name, createdBy, expiresAt } });
}

/**
 * Spends a pairing code and creates its agent in one transaction. Returns null when the code is
 * unknown, used or expired (a code works once, even under concurrent attempts).
 */
export async function redeemPairing({ codeHash, tokenHash, name, hostname, version }: { codeHash: string; tokenHash: string; name?: string; hostname: string; version: string }) {
  return prisma.$transaction(async (tx) => {
    const pairing = await tx.agentPairing.findUnique({ where: { codeHash } });
    if (!pairing || pairing.usedAt || pairing.expiresAt.getTime() <= Date.now()) return null;
    const spent = await tx.agentPairing.updateMany({ where: { id: pairing.id, usedAt: null }, data: { usedAt: new Date() } });
    if (spent.count !== 1) return null;
    const agent = await tx.agent.create({
      data: { workspaceId: pairing.workspaceId, name: name ?? (pairing.name || hostname || "agent"), hostname: hostname || null, version: version || null, tokenHash, createdBy: pairing.createdBy },
    });
    await tx.agentPairing.update({ where: { id: pairing.id }, data: { agentId: agent.id } });
    const workspace = await tx.workspace.findUniqueOrThrow({ where: { id: pairing.workspaceId }, select: { id: true, name: true } });
    return { agent, workspace };
  });
}

export function listAgents({ workspaceId }: { workspaceId: string }) {
  return prisma.agent.findMany({ where: { workspaceId }, include: agentInclude, orderBy: { createdAt: "asc" } });
}

export function findAgent({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.agent.findFirst({ where: { workspaceId, id }, include: agentInclude });
}

/** The agent a (hashed) token belongs to, if it is not revoked. */
export function findAgentByTokenHash({ tokenHash }: { tokenHash: string }) {
  return prisma.agent.findFirst({ where: { tokenHash, revokedAt: null }, include: { workspace: { select: { id: true, name: true } } } });
}

/** Revokes: the token hash is erased, so the token can never match again. */
export async function revokeAgent({ workspaceId, id }: { workspaceId: string; id: string }) {
  const { count } = await prisma.agent.updateMany({ where: { workspaceId, id, revokedAt: null }, data: { revokedAt: new Date(), tokenHash: null } });
  return count > 0;
}

export function touchAgent({ id, hostname, version }: { id: string; hostname?: string; version?: string }) {
  return prisma.agent.update({ where: { id }, data: { lastSeenAt: new Date(), ...(hostname ? { hostname } : {}), ...(version ? { version } : {}) } });
}

export type AnnounceOutcome = { name: string; serverId: string } | { name: string; refused: string };

type NamedServer = { id: string; name: string; kind: string; agentId: string | null; archivedAt: Date | null; agent: { revokedAt: Date | null } | null };

/**
 * Makes a Server row (kind "agent") for each announced name. An imported "stdio" row of that name,
 * or one left by a revoked agent (re-pairing keeps the history), is adopted; so is an archived
 * server of this agent or of a revoked one, which comes back unarchived. A name held by an active
 * HTTP server or by another live agent is refused (left as it is).
 */
export async function announceServers({ workspaceId, agentId, names }: { workspaceId: string; agentId: string; names: string[] }): Promise<AnnounceOutcome[]> {
  const existing: NamedServer[] = await prisma.server.findMany({
    where: { workspaceId, name: { in: names } },
    select: { id: true, name: true, kind: true, agentId: true, archivedAt: true, agent: { select: { revokedAt: true } } },
    orderBy: [{ archivedAt: "desc" }, { id: "asc" }],
  });
  const outcomes: AnnounceOutcome[] = [];
  for (const name of names) {
    const rows = existing.filter((s) => s.name === name);
    const row = rows.find((s) => s.archivedAt === null);
    const orphaned = (s: NamedServer) => s.kind === "agent" && (s.agentId === null || Boolean(s.agent?.revokedAt));
    if (!row) {
      const archived = rows.find((s) => s.kind === "agent" && s.agentId === agentId) ?? rows.find(orphaned);
      const adopted = archived
        ? await prisma.server
            .update({ where: { id: archived.id }, data: { kind: "agent", agentId, url: null, archivedAt: null, archivedBy: null }, select: { id: true } })
            .catch(() => null) // lost a race for the name
        : await prisma.server.create({ data: { workspaceId, name, kind: "agent", agentId, url: null }, select: { id: true } }).catch(() => null);
      outcomes.push(adopted ? { name, serverId: adopted.id } : { name, refused: "name taken" });
    } else if (row.kind === "agent" && row.agentId === agentId) {
      outcomes.push({ name, serverId: row.id });
    } else if (row.kind === "stdio" || orphaned(row)) {
      await prisma.server.update({ where: { id: row.id }, data: { kind: "agent", agentId, url: null } });
      outcomes.push({ name, serverId: row.id });
    } else {
      outcomes.push({ name, refused: row.kind === "http" ? "an HTTP server has this name" : "another agent serves this name" });
    }
  }
  await forgetCache("serverCache");
  return outcomes;
}

/** Binds an agent server to an agent, or (null) releases it for the next agent that announces its name. */
export async function bindServer({ workspaceId, serverId, agentId }: { workspaceId: string; serverId: string; agentId: string | null }) {
  const row = await prisma.server.update({
    where: { id: serverId, workspaceId },
    data: agentId ? { kind: "agent", agentId } : { kind: "stdio", agentId: null },
    select: { id: true },
  });
  await forgetCache("serverCache");
  return row;
}

export type AgentRow = NonNullable<Awaited<ReturnType<typeof findAgent>>>;
