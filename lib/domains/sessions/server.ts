import "server-only";
import { openConnection, type ListKind, type McpConnection, type ProtocolEra, type UpstreamConfig } from "@/lib/mcp/server";
import { decryptJson } from "@/lib/core/crypto";
import { SwitchboardError } from "@/lib/core/errors";
import { publish } from "@/lib/core/events/server";
import { elicitationCompleted, handleServerRequest, urlElicitationsRequired } from "@/lib/domains/interactions/server";
import type { SessionInfo } from "@/lib/domains/servers";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import { recordLog } from "@/lib/domains/logs/server";
import { outboundFetch } from "@/lib/core/net/server";
import { isPerMemberMode, isSignInRequired } from "@/lib/domains/server-oauth";
import { connectionEnterprise, connectionMachine, connectionOAuth, knownSecretValues, serverSecretValues, sessionSecrets } from "@/lib/domains/server-oauth/server";
import { sessionHeldSecrets } from "@/lib/core/redaction/server";
import { trafficSink } from "@/lib/domains/traffic/server";
import { pingAll, type PingTarget } from "./health";
import * as q from "./queries";
import { connectionTransportFor, refuseElsewhere } from "./transport";
import { serverFailure, upstream, upstreamFailure } from "./errors";

export { refuseElsewhere, serverFailure, upstream, upstreamFailure };
export { lastPingMs } from "./health";

export { toSessionInfo } from "./dto";
import { toSessionInfo } from "./dto";
import { piece } from "@/lib/core/runtime";

interface LiveEntry {
  sessionId: string;
  workspaceId: string;
  serverId: string;
  ready: Promise<McpConnection>;
}

// LiveEntry connections, keyed by server id, or "serverId:userId" for a server whose members each sign
// in with their own OAuth credential (one session per member). The session row is the truth; this
// map is rebuilt on demand (after a restart, the first request opens a fresh session).
const live = () => piece("sessions", () => new Map<string, LiveEntry>());

function liveKey(server: Pick<ServerSecretRow, "id" | "authMode" | "actingUserId">): string {
  return isPerMemberMode(server.authMode) ? `${server.id}:${server.actingUserId ?? ""}` : server.id;
}

function entriesOf(serverId: string): [string, LiveEntry][] {
  return [...live().entries()].filter(([, e]) => e.serverId === serverId);
}

/** Opens a new session for the server (for a per-member server: the caller's), replacing any current one. */
export async function connectServer(server: ServerSecretRow): Promise<SessionInfo> {
  refuseElsewhere(server);
  if (isPerMemberMode(server.authMode)) await closeLive(liveKey(server));
  else await disconnectServer(server.id, server.workspaceId);
  const entry = open(server);
  await entry.ready;
  const row = await q.findSession({ id: entry.sessionId });
  if (!row) throw new SwitchboardError("internal", "Session row vanished");
  return toSessionInfo(row);
}

/** The live connection for a server, opening a session when there is none. */
export async function getConnection(server: ServerSecretRow): Promise<{ sessionId: string; connection: McpConnection }> {
  refuseElsewhere(server);
  const entry = live().get(liveKey(server)) ?? open(server);
  const connection = await entry.ready;
  return { sessionId: entry.sessionId, connection };
}

/** The live connection for a server (the member's own first), or null when it has none (never opens one). */
export async function getLiveConnection(serverId: string, userId?: string): Promise<{ sessionId: string; connection: McpConnection } | null> {
  const entry = (userId ? live().get(`${serverId}:${userId}`) : undefined) ?? live().get(serverId);
  const connection = await entry?.ready.catch(() => null);
  return entry && connection ? { sessionId: entry.sessionId, connection } : null;
}

/** Ends one live connection (e.g. a member's own session of a per-member server). */
async function closeLive(key: string): Promise<void> {
  const entry = live().get(key);
  if (!entry) return;
  live().delete(key);
  const connection = await entry.ready.catch(() => undefined);
  await connection?.close();
  await q.markEnded({ id: entry.sessionId, status: "closed" });
}

/** Ends the live session of one member of a per-member server (after they sign out of it). */
export async function disconnectMember(server: ServerSecretRow): Promise<void> {
  if (isPerMemberMode(server.authMode)) await closeLive(liveKey(server));
  else await disconnectServer(server.id, server.workspaceId);
}

export async function disconnectServer(serverId: string, workspaceId: string): Promise<void> {
  const entries = entriesOf(serverId);
  const entry = entries.length > 0;
  for (const [key, e] of entries) {
    live().delete(key);
    const connection = await e.ready.catch(() => undefined);
    await connection?.close();
  }
  // Also rows whose connection died with an earlier process: the row must not claim a session.
  const { count } = await q.closeOpenSessions({ serverId });
  if (entry || count) publish(workspaceId, { type: "server", serverId, status: "disconnected" });
  if (entry) publish(workspaceId, { type: "resource_subscriptions", serverId, sessionId: null, uris: [] });
}

/** Tells the server's live session (if any) that its roots changed (`notifications/roots/list_changed`). */
export async function notifyRootsChanged(serverId: string): Promise<void> {
  for (const [, e] of entriesOf(serverId)) {
    const connection = await e.ready.catch(() => null);
    await connection?.rootsChanged();
  }
}

export function isLive(serverId: string): boolean {
  return entriesOf(serverId).length > 0;
}

/** What drift needs of a live connection: its lists. */
export interface SnapshotLister {
  list(kind: ListKind): Promise<unknown[]>;
}

/**
 * What a listener hears when a connection to a server went live, whoever owns it: the console's
 * sessions (here), the gateway's pooled upstreams and relayed host sessions (lib/gateway).
 */
export interface ConnectedSession {
  workspaceId: string;
  serverId: string;
  serverName: string;
  lister: SnapshotLister;
  /** False once the connection closed. */
  live(): boolean;
}

const connectedListeners = () => piece("sessionListeners", () => new Set<(session: ConnectedSession) => void>());

/** Tells `listener` of every connection that goes live from now on (lib/start hands in other domains' hooks); returns the way to stop. */
export function onSessionConnected(listener: (session: ConnectedSession) => void): () => void {
  connectedListeners().add(listener);
  return () => void connectedListeners().delete(listener);
}

/** A connection went live (the owners of connections call it: this file, lib/gateway). */
export function announceConnected(session: ConnectedSession): void {
  for (const listener of connectedListeners()) listener(session);
}

function open(server: ServerSecretRow): LiveEntry {
  const key = liveKey(server);
  const entry: LiveEntry = { sessionId: "", workspaceId: server.workspaceId, serverId: server.id, ready: undefined as never };
  const created = q.createSession({ workspaceId: server.workspaceId, serverId: server.id });
  entry.ready = created.then(async (row) => {
    entry.sessionId = row.id;
    try {
      // Loaded before anything is recorded, so that traffic masks OAuth tokens from the first message.
      await serverSecretValues({ workspaceId: server.workspaceId, serverId: server.id, row: server });
      const recording = { id: server.id, workspaceId: server.workspaceId, secrets: () => sessionSecrets({ workspaceId: server.workspaceId, serverId: server.id, sessionId: row.id }) };
      const connection = await openConnection({
        ...(await upstreamConfig(server)),
        transport: server.transport as "auto",
        timeoutMs: server.timeoutMs,
        eraHint: server.eraHint as "legacy" | "modern" | null,
        protocolEra: server.protocolEra as ProtocolEra,
        ...(server.kind === "demo" ? { transportKind: "memory" as const } : {}),
        onListChanged: (kind) => publish(server.workspaceId, { type: "list_changed", serverId: server.id, kind }),
        onResourceUpdated: (uri) =>
          publish(server.workspaceId, { type: "resource_updated", serverId: server.id, uri, at: new Date().toISOString() }),
        onSubscriptionsDropped: (dropped) => void subscriptionsDropped(server, row.id, dropped),
        onClose: (reason) => void lost(server, row.id, reason),
        onLog: (message) => void recordLog({ workspaceId: server.workspaceId, serverId: server.id, sessionId: row.id, message }).catch(() => undefined),
        onTraffic: trafficSink(server.workspaceId, row.id),
        trafficSecrets: () => sessionHeldSecrets({ sessionId: row.id, known: knownSecretValues(server.id) }),
        onServerRequest: (request, signal) => handleServerRequest(recording, row.id, request, signal),
        onElicitationComplete: (elicitationId) => void elicitationCompleted(server, elicitationId).catch(() => undefined),
        onUrlElicitationRequired: (elicitations) => void urlElicitationsRequired(recording, row.id, elicitations).catch(() => undefined),
      });
      const { info } = connection;
      await q.markConnected({ id: row.id, ...info });
      if (server.protocolEra === "auto" && info.era !== server.eraHint) await q.rememberEra({ serverId: server.id, era: info.era });
      publish(server.workspaceId, { type: "server", serverId: server.id, status: "connected" });
      announceConnected({ workspaceId: server.workspaceId, serverId: server.id, serverName: server.name, lister: connection, live: () => live().get(key) === entry });
      return connection;
    } catch (err) {
      if (live().get(key) === entry) live().delete(key);
      const failure = upstreamFailure(server, err);
      const oauth = failure instanceof SwitchboardError && isSignInRequired(failure.details) ? failure.details.oauth : null;
      await q.markEnded({ id: row.id, status: "failed", error: failure.message, errorKind: oauth });
      publish(server.workspaceId, { type: "server", serverId: server.id, status: "error" });
      throw failure;
    }
  });
  entry.ready.catch(() => undefined); // failures reach whoever awaits; none is unhandled
  live().set(key, entry);
  return entry;
}

/**
 * How to reach a server as its acting user: URL, headers, address policy, OAuth credential or
 * client credentials, or the agent relay / in-process transport. Throws when it cannot be
 * reached from here (an agent offline, connected to another instance, or not signed in).
 */
export async function upstreamConfig(server: ServerSecretRow): Promise<UpstreamConfig> {
  const oauth = await connectionOAuth(server);
  const machine = connectionMachine(server);
  const enterprise = await connectionEnterprise(server);
  const createTransport = connectionTransportFor(server);
  return {
    ...(oauth ? { oauth } : {}),
    ...(machine ? { machine } : {}),
    ...(enterprise ? { enterprise } : {}),
    ...(createTransport ? { createTransport } : {}),
    url: server.url ?? "",
    fetch: outboundFetch({ workspaceId: server.workspaceId }),
    headers: server.headersSecret ? decryptJson<Record<string, string>>(server.headersSecret) : {},
  };
}

async function lost(server: ServerSecretRow, sessionId: string, reason: string) {
  const key = liveKey(server);
  if (live().get(key)?.sessionId === sessionId) live().delete(key);
  await q.markEnded({ id: sessionId, status: "failed", error: reason });
  publish(server.workspaceId, { type: "server", serverId: server.id, status: "error" });
  publish(server.workspaceId, { type: "resource_subscriptions", serverId: server.id, sessionId: null, uris: [] });
}

async function subscriptionsDropped(server: ServerSecretRow, sessionId: string, dropped: string[]) {
  const connection = await live().get(liveKey(server))?.ready.catch(() => null);
  const uris = connection?.resourceSubscriptions ?? [];
  publish(server.workspaceId, { type: "resource_subscriptions", serverId: server.id, sessionId, uris, dropped });
}

/** Pings every live, connected session on this instance (the `sessions.health` job, lib/start/jobs.ts). */
export async function pingLiveSessions(): Promise<void> {
  await pingAll(await liveTargets());
}

async function liveTargets(): Promise<PingTarget[]> {
  const entries = [...live().entries()];
  const settled = await Promise.all(entries.map(([, e]) => e.ready.catch(() => null)));
  return entries.flatMap(([, e], i) => {
    const connection = settled[i];
    return connection ? [{ workspaceId: e.workspaceId, serverId: e.serverId, sessionId: e.sessionId, connection }] : [];
  });
}
export { listSessionsOfServer, pingServer, requireSession, setServerLogLevel } from "./live-ops";
