import "server-only";
import crypto from "node:crypto";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { Reply, type ApiRequest } from "@/lib/api/reply";
import { instanceUrl } from "@/lib/core/cluster";
import { forwardRequest } from "@/lib/core/cluster/server";
import { ServedElsewhere } from "@/lib/core/errors";
import { instanceId } from "@/lib/core/instances";
import { piece } from "@/lib/core/runtime";
import { timingOf } from "@/lib/core/timing";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import { announceConnected, type SnapshotLister } from "@/lib/domains/sessions/server";
import { authenticateGateway, resourceUrl, type GatewayPrincipal } from "../auth";
import { bridgeServer, bridgeTarget } from "../bridge/aggregate";
import { hasBridgeSession, serveBridgeSession } from "../bridge/sessions";
import { handleVirtualRequest } from "../bridge/virtual";
import { within } from "../bridge/reach";
import { admit, offerList, type Listed } from "../gate";
import { answering, answeringReply, fetchRequestOf, isInitialize, jsonError, notAllowed, readBody, requireBearer, rpcError, timed, type Body } from "../http";
import { rpcFailure } from "../outcome";
import { RPC } from "../policy";
import { recordConnection } from "../presence";
import * as q from "../queries";
import { beginGatewayCall, credentialOf, recordRefusal, type Credential } from "../recorder";
import { holdGatewayCall } from "../hold";
import { findGatewayRoute, serverHere, type GatewayRoute } from "../routes";
import { passthroughUpstream } from "../connect";
import { isLegacySse, serveLegacySse } from "../legacy-sse";
import { directRequest, type OneRequest } from "./direct";
import type { CallMethod } from "@/lib/domains/calls";
import { jsonWhenQuick } from "./json-answer";
import { PassthroughSession, type PassthroughHooks } from "./session";

/** A relayed host session and its owner: who opened it (a session is never handed to another person). */
interface RelaySession {
  relay: PassthroughSession;
  userId: string;
  serverId: string;
  /** Those of the latest request: exposure and role changes apply at once. */
  principal: GatewayPrincipal;
  route: GatewayRoute;
  touchedAt: number;
}

const relays = () => piece("gatewayRelays", () => new Map<string, RelaySession>());
const TOUCH_EVERY_MS = 60_000;

/**
 * One HTTP request to /mcp/<slug>/<server> as the console's pipeline hands it (lib/api/pipeline.ts),
 * authenticated on every request: a relayed session's request of one call answered by the relay
 * itself (lib/gateway/passthrough/direct.ts), anything else as handleGatewayRequest serves it.
 * Every answer carries Server-Timing.
 */
export async function serveGatewayRequest(request: ApiRequest, slug: string, serverName: string): Promise<Reply> {
  const timing = timingOf(request);
  const resource = () => resourceUrl(request, slug, serverName);
  const reply = await answeringReply(resource, async () => {
    requireBearer(request);
    const route = await findGatewayRoute(slug, serverName);
    let at = timing.since("route", timing.startedAt);
    // A server offered under that name wins the path over a virtual server of the same name.
    if (!route?.enabled) return Reply.from((await handleVirtualRequest(fetchRequestOf(request), slug, serverName, timing)) ?? notOffered(serverName));
    const principal = await authenticateGateway(request, route, resource);
    at = timing.since("auth", at);
    const legacy = isLegacySse(request);
    const body = request.method === "POST" && !legacy ? await readBody(request) : null;
    const one = body && directRequest(request, body.parsed);
    const sessionId = request.headers.get("mcp-session-id");
    const session = one && sessionId ? relays().get(sessionId) : undefined;
    if (one && session && !session.relay.isClosed && owns(session, route, principal)) {
      timing.since("route", at);
      refresh(session, sessionId!, route, principal);
      return session.relay.answer(one, timing);
    }
    const fetchRequest = fetchRequestOf(request, body?.text);
    return Reply.from(await (legacy ? legacySse(fetchRequest, principal, slug, serverName) : routed(fetchRequest, body, route, principal)));
  });
  return timed(reply, timing);
}

/**
 * One HTTP request to /mcp/<slug>/<server> as a Fetch Request (Next's pipeline, a legacy host's
 * replayed message): authenticated on every request, routed to the host's relayed session (or,
 * for `initialize`, a new one), or forwarded to the instance that holds it.
 */
export async function handleGatewayRequest(request: Request, slug: string, serverName: string): Promise<Response> {
  const resource = resourceUrl(request, slug, serverName);
  return answering(resource, async () => {
    requireBearer(request);
    const route = await findGatewayRoute(slug, serverName);
    if (!route?.enabled) return (await handleVirtualRequest(request, slug, serverName)) ?? notOffered(serverName);
    const principal = await authenticateGateway(request, route, resource);
    if (isLegacySse(request)) return await legacySse(request, principal, slug, serverName);
    return await routed(request, request.method === "POST" ? await readBody(request) : null, route, principal);
  });
}

const notOffered = (serverName: string) => jsonError(404, "not_found", `No server named "${serverName}" is offered at this endpoint`);

function legacySse(request: Request, principal: GatewayPrincipal, slug: string, serverName: string): Promise<Response> {
  return serveLegacySse(request, principal, (inner) => handleGatewayRequest(inner, slug, serverName));
}

async function routed(request: Request, body: Body | null, route: GatewayRoute, principal: GatewayPrincipal): Promise<Response> {
  if (body && body.parsed === undefined) return rpcError(400, null, -32700, "Parse error: the body is not JSON");
  const sessionId = request.headers.get("mcp-session-id");
  if (sessionId && hasBridgeSession(sessionId)) return await shared(request, body, route, principal, sessionId);
  if (sessionId) return await existing(request, body, sessionId, route, principal);
  if (request.method !== "POST") return notAllowed();
  // A modern-era (2026-07-28) host: no session, every request stands alone.
  if (!isInitialize(body!.parsed) && !(await isLegacyRequest(request, body!.parsed))) return await bridgeServer(request, body!, route, principal);
  if (!isInitialize(body?.parsed)) return rpcError(400, null, RPC.invalidRequest, "Bad Request: send initialize first to open a session");
  const server = await serverHere(request, body!, route, principal);
  if (server instanceof Response) return server;
  if (sharesProcess(server)) return await shared(request, body, route, principal, null, server);
  return await opened(request, body!, route, server, principal);
}

/**
 * A stdio server that allows it (`shareProcess`) serves every session of one principal from one
 * process: the host's session is a bridge session (as on the aggregated endpoint) over the pooled
 * upstream connection of that principal and server, instead of a relayed session of its own.
 */
function sharesProcess(server: ServerSecretRow): boolean {
  return server.kind === "agent" && server.shareProcess;
}

async function shared(request: Request, body: Body | null, route: GatewayRoute, principal: GatewayPrincipal, sessionId: string | null, found?: ServerSecretRow): Promise<Response> {
  const server = found ?? (await serverHere(request, body ?? { text: "", parsed: undefined }, route, principal));
  if (server instanceof Response) return server;
  return serveBridgeSession(request, body?.parsed, bridgeTarget(route, server, principal), sessionId);
}

async function existing(request: Request, body: Body | null, sessionId: string, route: GatewayRoute, principal: GatewayPrincipal): Promise<Response> {
  const session = relays().get(sessionId);
  if (!session) {
    const row = await q.findConnection({ id: sessionId });
    if (row && !row.endedAt && row.userId === principal.userId && row.instanceId && row.instanceId !== instanceId() && instanceUrl(row.instanceId)) {
      return forwardRequest(request, body?.text ?? null, new ServedElsewhere(row.instanceId, "This MCP session"));
    }
    // A shared-process session lives beside the agent: another instance may hold it.
    const server = await serverHere(request, body ?? { text: "", parsed: undefined }, route, principal);
    if (server instanceof Response) return server;
    return rpcError(404, null, -32001, "Session not found: initialize a new session");
  }
  if (!owns(session, route, principal)) return rpcError(404, null, -32001, "Session not found: initialize a new session");
  refresh(session, sessionId, route, principal);
  const answer = await session.relay.downstream.handleRequest(request, body ? { parsedBody: body.parsed } : undefined);
  return isOneRequest(body?.parsed) ? jsonWhenQuick(answer, request.signal) : answer;
}

/** A session is never handed to another person, nor reached at another server's endpoint. */
function owns(session: RelaySession, route: GatewayRoute, principal: GatewayPrincipal): boolean {
  return session.userId === principal.userId && session.serverId === route.serverId;
}

/** The session's principal and route are those of its latest request (exposure and role changes apply at once). */
function refresh(session: RelaySession, sessionId: string, route: GatewayRoute, principal: GatewayPrincipal) {
  session.principal = principal;
  session.route = route;
  if (Date.now() - session.touchedAt > TOUCH_EVERY_MS) {
    session.touchedAt = Date.now();
    void q.touchConnection({ id: sessionId }).catch(() => undefined);
  }
}

function isOneRequest(message: unknown): boolean {
  const m = message as { id?: unknown; method?: unknown } | null | undefined;
  return Boolean(m) && !Array.isArray(m) && typeof m!.method === "string" && (typeof m!.id === "string" || typeof m!.id === "number");
}

async function opened(request: Request, body: Body, route: GatewayRoute, server: ServerSecretRow, principal: GatewayPrincipal): Promise<Response> {
  let upstream;
  try {
    upstream = await passthroughUpstream(server);
  } catch (err) {
    const id = (body.parsed as { id?: string | number }).id ?? null;
    const failure = rpcFailure(server, err);
    return rpcError(502, id, failure.code, failure.message);
  }
  const id = crypto.randomUUID();
  const session = { userId: principal.userId, serverId: server.id, principal, route, touchedAt: Date.now() } as RelaySession;
  session.relay = new PassthroughSession(id, upstream.transport, hooksFor(id, server, session, upstream.fallback));
  relays().set(id, session);
  await session.relay.start();
  const answer = await session.relay.downstream.handleRequest(request, { parsedBody: body.parsed });
  return isOneRequest(body.parsed) ? jsonWhenQuick(answer, request.signal) : answer;
}

/** What the relay asks around each message: the gate, the recorder, the host's row under Connected clients. */
function hooksFor(id: string, server: ServerSecretRow, session: RelaySession, fallback: PassthroughHooks["fallback"]): PassthroughHooks {
  // The server's tools as last listed (the exposure's read-only rule needs their annotations).
  const tools = new Map<string, Listed>();
  let client: string | null = null;
  // The credential the upstream session runs with does not change call by call: one lookup per session.
  let credential: Credential | undefined;
  // Its end must not overtake the row's insert.
  let recorded: Promise<unknown> = Promise.resolve();
  // A recorded call as history shows it: the host's params without `_meta`.
  const started = (request: OneRequest) => {
    const { _meta: _ignored, ...params } = request.params ?? {};
    const name = String(request.method === "resources/read" ? params.uri : params.name);
    return { server, principal: session.principal, method: request.method as CallMethod, name, params, meta: request.params?._meta, sessionId: id };
  };
  return {
    async admit(request, relay) {
      const name = String((request.method === "resources/read" ? request.params?.uri : request.params?.name) ?? "");
      const find = async () => {
        if (!tools.has(name)) await within(learnTools(relay, tools), server.timeoutMs, "tools/list").catch(() => undefined);
        const item = tools.get(name);
        return item && { item, route: session.route };
      };
      return admit(session.principal, session.route, request.method, name, { find, required: false }, request.params?.arguments);
    },
    async record(request, hold) {
      credential ??= credentialOf(server);
      return beginGatewayCall({ ...started(request), client, credential, policyRuleId: hold?.rule?.id ?? null });
    },
    async refused(request, decision) {
      await recordRefusal({ ...started(request), client, credential: Promise.resolve(null) }, decision);
    },
    hold(request, call, decision, signal, onWaiting) {
      const { method, name } = started(request);
      return holdGatewayCall({ call, decision, principal: session.principal, server, method, name, client, signal, onWaiting });
    },
    shape(method, result) {
      if (method === "tools/list") for (const tool of (result.tools as Listed[] | undefined) ?? []) if (typeof tool.name === "string") tools.set(tool.name, tool);
      return method.endsWith("/list") ? offerList(session.principal, session.route, method, result) : result;
    },
    // Written before the answer leaves: the host's next request may reach another instance, which
    // finds the session's owner in this row.
    async initialized(info) {
      client = [info.name, info.version].filter(Boolean).join(" ") || null;
      recorded = recordConnection(id, server, session.principal, { name: info.name ?? null, version: info.version ?? null, protocolVersion: info.protocolVersion ?? null });
      await recorded;
    },
    live() {
      announceConnected({ workspaceId: server.workspaceId, serverId: server.id, serverName: server.name, lister: relayLister(session.relay), live: () => !session.relay.isClosed });
    },
    ended(reason) {
      relays().delete(id);
      void recorded.then(() => q.endConnection({ id, reason })).catch(() => undefined);
    },
    fallback,
  };
}

const LISTS = { tools: ["tools/list", "tools"], prompts: ["prompts/list", "prompts"], resources: ["resources/list", "resources"], "resource-templates": ["resources/templates/list", "resourceTemplates"] } as const;

/** A relayed session's lists, asked on its upstream by the gateway itself (never seen by the host): what drift snapshots. */
function relayLister(relay: PassthroughSession): SnapshotLister {
  return {
    async list(kind) {
      const [method, field] = LISTS[kind];
      const items: unknown[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 50; page++) {
        let result;
        try {
          result = await relay.request(method, cursor ? { cursor } : {});
        } catch (err) {
          // A server without the capability has nothing to list (as lib/mcp's list says); anything else fails the snapshot.
          if ((err as { code?: unknown }).code === -32601) return items;
          throw err;
        }
        items.push(...((result[field] as unknown[] | undefined) ?? []));
        cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
        if (!cursor) break;
      }
      return items;
    },
  };
}

async function learnTools(relay: PassthroughSession, tools: Map<string, Listed>): Promise<void> {
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const result = await relay.request("tools/list", cursor ? { cursor } : {});
    for (const tool of (result.tools as Listed[] | undefined) ?? []) if (typeof tool.name === "string") tools.set(tool.name, tool);
    cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
    if (!cursor) return;
  }
}

/** Ends one host's session (an admin's "Disconnect"); false when this instance does not hold it. */
export async function closeRelay(id: string, reason: string): Promise<boolean> {
  const session = relays().get(id);
  if (!session) return false;
  await session.relay.close(reason);
  return true;
}
