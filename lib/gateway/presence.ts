import "server-only";
import crypto from "node:crypto";
import { instanceId } from "@/lib/core/instances";
import { piece } from "@/lib/core/runtime";
import type { GatewayPrincipal } from "./auth";
import type { BridgeTarget } from "./bridge/scope";
import * as q from "./queries";
import { IDLE_MS, upstreamPool } from "./bridge/upstreams";

const TOUCH_EVERY_MS = 60_000;

/** What a host says about itself: `initialize` params (legacy era) or a request's `_meta` (modern era). */
export interface HostInfo {
  name: string | null;
  version: string | null;
  protocolVersion: string | null;
}

interface Presence {
  id: string;
  principalKey: string;
  serverId: string;
  touchedAt: number;
  /** Open sessions of a legacy-era host (none for a modern-era one): the row ends when the last one does. */
  sessions: number;
  /** Its row is written (a disconnect or an end must not overtake the insert). */
  recorded: Promise<unknown>;
}

interface Presences {
  byKey: Map<string, Presence>;
}

const presences = () => piece("gatewayPresence", (): Presences => ({ byKey: new Map() }));

/**
 * The bridge's hosts under Connected clients (a relay session has its own row, lib/gateway/passthrough/endpoint.ts).
 * A modern-era host has no session: it is connected from its first request until IDLE_MS without
 * one, per (principal, server, host name); a host of the aggregated endpoint is listed under each
 * server behind it.
 */
export function hostSeen(target: BridgeTarget, host: HostInfo, opened = 0): void {
  const now = Date.now();
  for (const member of target.members) {
    const key = presenceKey(target, member.server.id, host);
    const found = presences().byKey.get(key);
    if (found) found.sessions += opened;
    if (found) {
      if (now - found.touchedAt > TOUCH_EVERY_MS) {
        found.touchedAt = now;
        void found.recorded.then(() => q.touchConnection({ id: found.id })).catch(() => undefined);
      }
      continue;
    }
    const id = crypto.randomUUID();
    const recorded = recordConnection(id, member.server, target.principal, host);
    presences().byKey.set(key, { id, principalKey: target.principal.limitKey, serverId: member.server.id, touchedAt: now, sessions: opened, recorded });
  }
}

/** A legacy-era host closed a session (its DELETE): when it held no other, its row ends as closed. */
export function hostSessionClosed(target: BridgeTarget, host: HostInfo): void {
  for (const member of target.members) {
    const key = presenceKey(target, member.server.id, host);
    const presence = presences().byKey.get(key);
    if (!presence || --presence.sessions > 0) continue;
    presences().byKey.delete(key);
    void presence.recorded.then(() => q.endConnection({ id: presence.id, reason: "closed" })).catch(() => undefined);
  }
}

function presenceKey(target: BridgeTarget, serverId: string, host: HostInfo): string {
  return `${target.principal.limitKey}\n${serverId}\n${host.name ?? ""}`;
}

/** A host's row under Connected clients (a relay session's or a bridged host's); a failure is logged, not thrown. */
export function recordConnection(id: string, server: { id: string; workspaceId: string }, who: GatewayPrincipal, host: HostInfo): Promise<unknown> {
  return q
    .createConnection({
      id,
      workspaceId: server.workspaceId,
      serverId: server.id,
      userId: who.userId,
      tokenId: who.tokenId,
      oauthClientId: who.oauthClientId,
      clientName: host.name?.slice(0, 200) ?? null,
      clientVersion: host.version?.slice(0, 100) ?? null,
      protocolVersion: host.protocolVersion?.slice(0, 40) ?? null,
      instanceId: instanceId(),
    })
    .catch((err: unknown) => console.error("[gateway] could not record the connection", err));
}

/** A modern-era request's host, from its `_meta`. */
export function hostOfRequest(body: unknown): HostInfo {
  const meta = (body as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta;
  const info = meta?.["io.modelcontextprotocol/clientInfo"] as { name?: unknown; version?: unknown } | undefined;
  const version = meta?.["io.modelcontextprotocol/protocolVersion"];
  return { name: text(info?.name), version: text(info?.version), protocolVersion: text(version) };
}

/**
 * An admin's "Disconnect" of a bridged host held here: its row ends and the upstream connections
 * its requests used close. False when this instance does not hold it.
 */
export async function disconnectHost(id: string): Promise<boolean> {
  const entry = [...presences().byKey].find(([, presence]) => presence.id === id);
  if (!entry) return false;
  const [key, presence] = entry;
  presences().byKey.delete(key);
  await presence.recorded;
  await q.endConnection({ id, reason: "disconnected" });
  const pooled = `${presence.principalKey}\n${presence.serverId}`;
  // The shared connection and the capable ones its calls checked out (lib/gateway/bridge/upstreams.ts).
  await upstreamPool().close((upstream) => upstream.key === pooled || upstream.key.startsWith(`${pooled}\n`));
  return true;
}

/** Ends the rows of hosts unseen for IDLE_MS (the gateway's sweep job, lib/gateway/server.ts). */
export function sweepPresences(now = Date.now()): void {
  for (const [key, presence] of presences().byKey) {
    if (now - presence.touchedAt <= IDLE_MS) continue;
    presences().byKey.delete(key);
    void presence.recorded.then(() => q.endConnection({ id: presence.id, reason: "idle" })).catch(() => undefined);
  }
}

function text(value: unknown): string | null {
  return typeof value === "string" && value ? value : null;
}
