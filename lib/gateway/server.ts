import "server-only";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { instanceUrl } from "@/lib/core/cluster";
import { prisma } from "@/lib/core/db/client";
import { notFound, ServedElsewhere } from "@/lib/core/errors";
import { instanceId } from "@/lib/core/instances";
import { revokeGatewayGrants } from "@/lib/identity/gateway-auth/server";
import { existingPiece, forgetCache } from "@/lib/core/runtime";
import type { Bridges } from "./bridge/bridge";
import type { BridgeSessions } from "./bridge/sessions";
import type { UpstreamPool } from "./bridge/upstreams";
import { getServer } from "@/lib/domains/servers/server";
import { closeRelay } from "./passthrough/endpoint";
import { disconnectHost, sweepPresences } from "./presence";
import { closeUpstreamsOf, IDLE_MS, upstreamPool } from "./bridge/upstreams";
import { sweepBridges } from "./bridge/bridge";
import { sweepBridgeSessions } from "./bridge/sessions";
import { gatewayPath, type ConnectedClientDto, type ExposureDto, type ExposureInput } from "./index";
import * as q from "./queries";

export { handleGatewayRequest, serveGatewayRequest } from "./passthrough/endpoint";
export { handleAggregateRequest, serveAggregateRequest } from "./bridge/aggregate";
export { aggregateHandler, gatewayHandler, mockHandler } from "./handlers";

export async function getExposure(principal: Principal, serverId: string): Promise<ExposureDto> {
  const server = await getServer(principal, serverId);
  const row = await q.findExposure({ serverId: server.id });
  return toDto(await workspaceSlug(principal.workspaceId), server.name, server.id, row);
}

/** Offers a server to other MCP hosts (or stops): which tools, read-only, a rate limit per token. */
export async function setExposure(principal: Principal, serverId: string, input: ExposureInput): Promise<ExposureDto> {
  const server = await getServer(principal, serverId);
  const before = await q.findExposure({ serverId: server.id });
  const row = await q.upsertExposure({
    serverId: server.id,
    workspaceId: principal.workspaceId,
    enabled: input.enabled,
    tools: input.tools === undefined ? (before?.tools ?? null) : input.tools === null ? null : JSON.stringify([...new Set(input.tools)]),
    readOnly: input.readOnly ?? before?.readOnly ?? false,
    rateLimitPerMinute: input.rateLimitPerMinute === undefined ? (before?.rateLimitPerMinute ?? null) : input.rateLimitPerMinute,
  });
  await forgetCache("gatewayCache");
  if (!row.enabled) await closeUpstreamsOf(server.id);
  const details = { enabled: row.enabled, tools: row.tools ? (JSON.parse(row.tools) as string[]) : null, readOnly: row.readOnly, rateLimitPerMinute: row.rateLimitPerMinute };
  await audit(principal, { action: "gateway.exposure_changed", target: { type: "server", id: server.id, name: server.name }, details });
  return toDto(await workspaceSlug(principal.workspaceId), server.name, server.id, row);
}

export async function listConnectedClients(principal: Principal, serverId: string): Promise<ConnectedClientDto[]> {
  const server = await getServer(principal, serverId);
  const rows = await q.listConnections({ workspaceId: principal.workspaceId, serverId: server.id });
  return rows.map((row) => ({
    id: row.id,
    userId: row.userId,
    userName: row.userName,
    clientName: row.clientName,
    clientVersion: row.clientVersion,
    protocolVersion: row.protocolVersion,
    via: row.tokenId ? "token" : "oauth",
    connectedAt: row.connectedAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    endReason: row.endReason,
  }));
}

/**
 * Ends a host's session (its next request gets 404) or, for a host without one (lib/gateway/presence.ts),
 * its row and upstream connections. A host that still holds a valid token may come back: with
 * `revoke`, an OAuth host's grant is revoked too (it must ask the person again).
 */
export async function disconnectClient(principal: Principal, serverId: string, connectionId: string, { revoke = false }: { revoke?: boolean } = {}): Promise<void> {
  const server = await getServer(principal, serverId);
  const row = await q.findConnection({ id: connectionId });
  if (!row || row.workspaceId !== principal.workspaceId || row.serverId !== server.id) throw notFound("Connected client");
  if (revoke && row.oauthClientId) await revokeGatewayGrants({ userId: row.userId, clientId: row.oauthClientId });
  if (row.endedAt && !revoke) return;
  const here = row.endedAt ? true : (await closeRelay(row.id, "disconnected")) || (await disconnectHost(row.id));
  if (!here && row.instanceId && row.instanceId !== instanceId() && instanceUrl(row.instanceId)) throw new ServedElsewhere(row.instanceId, "This MCP session");
  if (!here) await q.endConnection({ id: row.id, reason: "disconnected" });
  await audit(principal, {
    action: "gateway.client_disconnected",
    target: { type: "server", id: server.id, name: server.name },
    details: { connectionId: row.id, client: [row.clientName, row.clientVersion].filter(Boolean).join(" ") || null, userId: row.userId, revoked: revoke && row.oauthClientId !== null },
  });
}

async function workspaceSlug(workspaceId: string): Promise<string> {
  const row = await prisma.workspace.findUnique({ where: { id: workspaceId }, select: { slug: true } });
  return row?.slug ?? "";
}

function toDto(slug: string, serverName: string, serverId: string, row: Awaited<ReturnType<typeof q.findExposure>>): ExposureDto {
  return {
    serverId,
    enabled: row?.enabled ?? false,
    tools: row?.tools ? (JSON.parse(row.tools) as string[]) : null,
    readOnly: row?.readOnly ?? false,
    rateLimitPerMinute: row?.rateLimitPerMinute ?? null,
    path: gatewayPath(slug, serverName),
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/** At a graceful stop (lib/start): bridged hosts' handlers, then their upstream sessions, left politely. */
/** How often the gateway's sweep job runs (lib/start/jobs.ts): idle things end within IDLE_MS and a minute. */
export const GATEWAY_SWEEP_MS = Math.min(IDLE_MS, 60_000);

/** Ends what bridged hosts left idle for IDLE_MS: bridges, legacy sessions, Connected-clients rows, upstream connections. */
export async function sweepGateway(): Promise<void> {
  const now = Date.now();
  sweepBridges(now);
  sweepBridgeSessions(now);
  sweepPresences(now);
  await upstreamPool().sweep(now);
}

export async function closeGateway(): Promise<void> {
  await Promise.allSettled([...(existingPiece<Bridges>("gatewayBridges")?.entries.values() ?? [])].map((bridge) => bridge.handler.close()));
  await Promise.allSettled([...(existingPiece<BridgeSessions>("gatewayBridgeSessions")?.entries.values() ?? [])].map((session) => session.server.close()));
  await existingPiece<UpstreamPool>("gatewayUpstreams")?.close().catch(() => undefined);
}

/** Hosts this instance's gateway serves now (lib/core/metrics): relayed sessions, and bridged hosts under each server they reach. */
export function gatewayHostCounts(): { relayed: number; bridged: number } {
  return {
    relayed: existingPiece<Map<string, unknown>>("gatewayRelays")?.size ?? 0,
    bridged: existingPiece<{ byKey: Map<string, unknown> }>("gatewayPresence")?.byKey.size ?? 0,
  };
}
