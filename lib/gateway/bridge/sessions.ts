import "server-only";
import crypto from "node:crypto";
import { WebStandardStreamableHTTPServerTransport, type Server } from "@modelcontextprotocol/server";
import { piece } from "@/lib/core/runtime";
import { severityOf } from "@/lib/domains/logs";
import type { ListChangedKind } from "@/lib/mcp/server";
import { BridgeScope, unwatchAll, type BridgeSessionState, type BridgeState, type BridgeTarget } from "./scope";
import { Unreachable } from "./reach";
import { buildBridgeServer, type BridgeCurrent } from "./sdk-server";
import { rpcError } from "../http";
import { hostSeen, hostSessionClosed, type HostInfo } from "../presence";
import { IDLE_MS, unsubscribeUpstream, type PooledUpstream } from "./upstreams";

/** A legacy-era host's session on the aggregated endpoint: its own SDK server and Streamable HTTP transport. */
interface BridgeSession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  /** The principal, exposure and servers of the session's latest request. */
  current: BridgeCurrent;
  userId: string;
  lastUsed: number;
  /** Who it is, from `initialize`: listed under Connected clients for each server behind the endpoint. */
  host: HostInfo;
}

export interface BridgeSessions {
  entries: Map<string, BridgeSession>;
}

const sessions = () => piece("gatewayBridgeSessions", (): BridgeSessions => ({ entries: new Map() }));

/**
 * A legacy (2025-era) host on the aggregated endpoint: `initialize` opens a session held in this
 * instance's memory (a request reaching another instance gets 404 and the host initializes again,
 * as the spec asks), later requests and its GET stream (list_changed) go to it.
 */
export async function serveBridgeSession(request: Request, parsedBody: unknown, target: BridgeTarget, sessionId: string | null): Promise<Response> {
  if (sessionId) {
    const session = sessions().entries.get(sessionId);
    if (!session || session.userId !== target.principal.userId || session.current.target.path !== target.path) return rpcError(404, null, -32001, "Session not found: initialize a new session");
    session.current.target = target;
    session.lastUsed = Date.now();
    hostSeen(target, session.host);
    return session.transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
  }
  const id = crypto.randomUUID();
  const state = newState(() => session.server, () => session.current.target.path);
  const current = { target, state, shared: await new BridgeScope(target, state).shared() };
  const server = await buildBridgeServer(() => current);
  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => id, onsessionclosed: () => void end(id, { closed: true }) });
  const session: BridgeSession = { transport, server, current, userId: target.principal.userId, lastUsed: Date.now(), host: hostOfInitialize(parsedBody) };
  hostSeen(target, session.host, 1);
  transport.onclose = () => void end(id);
  await server.connect(transport);
  sessions().entries.set(id, session);
  return transport.handleRequest(request, { parsedBody });
}

/** Whether this instance holds a bridge session by this id (the aggregated endpoint's, or a shared-process server's). */
export function hasBridgeSession(id: string): boolean {
  return sessions().entries.has(id);
}

function hostOfInitialize(body: unknown): HostInfo {
  const params = (body as { params?: { clientInfo?: { name?: unknown; version?: unknown }; protocolVersion?: unknown } } | undefined)?.params;
  const text = (value: unknown) => (typeof value === "string" && value ? value : null);
  return { name: text(params?.clientInfo?.name), version: text(params?.clientInfo?.version), protocolVersion: text(params?.protocolVersion) };
}

function newState(server: () => Server, path: () => string): BridgeState {
  const subscriptions = new Map<string, PooledUpstream>();
  const session: BridgeSessionState = {
    subscriptions,
    logLevel: null,
    log: (member, message) => {
      if (session.logLevel && severityOf(message.level) < severityOf(session.logLevel)) return;
      // On the aggregated endpoint the logger names the server, as tool names do.
      const logger = [member.prefix, message.logger].filter(Boolean).join("/");
      void server().sendLoggingMessage({ level: message.level, data: message.data, ...(logger ? { logger } : {}) }).catch(() => undefined);
    },
  };
  const listChanged = (kind: ListChangedKind) => {
    const s = server();
    const sent = kind === "tools" ? s.sendToolListChanged() : kind === "prompts" ? s.sendPromptListChanged() : s.sendResourceListChanged();
    void sent.catch(() => undefined);
  };
  return {
    resourceOwners: new Map(),
    watched: new Map(),
    session,
    listChanged,
    unreachable: new Unreachable(path, () => {
      for (const kind of ["tools", "prompts", "resources"] as const) listChanged(kind);
    }),
    resourceUpdated: (uri) => {
      if (subscriptions.has(uri)) void server().sendResourceUpdated({ uri }).catch(() => undefined);
    },
  };
}

/** Ends a session; `closed`: by its host (a DELETE), which ends the host's row under Connected clients when it held no other. */
async function end(id: string, { closed = false } = {}): Promise<void> {
  const session = sessions().entries.get(id);
  if (!session) return;
  sessions().entries.delete(id);
  if (closed) hostSessionClosed(session.current.target, session.host);
  const held = session.current.state.session!.subscriptions;
  for (const [uri, pooled] of held) void unsubscribeUpstream(pooled, uri);
  held.clear();
  unwatchAll(session.current.state);
  await session.server.close().catch(() => undefined);
}

/** Ends legacy hosts' sessions unused for IDLE_MS (the gateway's sweep job, lib/gateway/server.ts). */
export function sweepBridgeSessions(now = Date.now()): void {
  for (const [id, session] of sessions().entries) if (now - session.lastUsed > IDLE_MS) void end(id);
}
