import "server-only";
import crypto from "node:crypto";
import { SdkHttpError } from "@modelcontextprotocol/client";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { beginRelayedCall } from "@/lib/calls/server";
import { instanceUrl } from "@/lib/cluster";
import { forwardRequest } from "@/lib/cluster/server";
import { ServedElsewhere } from "@/lib/errors";
import { instanceId } from "@/lib/instances";
import { credentialUsed } from "@/lib/oauth/server";
import { openUpstream } from "@/lib/mcp/server";
import { piece } from "@/lib/runtime";
import type { ServerSecretRow } from "@/lib/servers/server";
import { upstreamConfig } from "@/lib/sessions/server";
import { authenticateGateway, resourceUrl, type GatewayPrincipal } from "../auth";
import { bridgeServer, serverHere } from "../bridge/aggregate";
import { jsonWhenQuick } from "./json-answer";
import { answering, isInitialize, jsonError, readBody, requireBearer, rpcError, type Body } from "../http";
import { offered, offeredTools, RPC } from "../policy";
import * as q from "../queries";
import { limit } from "../limit";
import { recordConnection } from "../presence";
import { GatewayRelay, type RelayHooks } from "./relay";
import { findGatewayRoute, type GatewayRoute } from "../routes";

const relays = piece("gatewayRelays", () => new Map<string, GatewayRelay>());
const TOUCH_EVERY_MS = 60_000;

// The relays' owners: who opened each session (a session is never handed to another person).
// The route and principal are those of the latest request: exposure and role changes apply at once.
const owners = new WeakMap<GatewayRelay, Current & { userId: string; serverId: string; touchedAt: number }>();

interface Current {
  principal: GatewayPrincipal;
  route: GatewayRoute;
}

/**
 * One HTTP request to /mcp/<slug>/<server>: authenticated on every request, routed to the host's
 * relayed session (or, for `initialize`, a new one), or forwarded to the instance that holds it.
 */
export async function handleGatewayRequest(request: Request, slug: string, serverName: string): Promise<Response> {
  const resource = resourceUrl(request, slug, serverName);
  return answering(resource, async () => {
    requireBearer(request);
    const route = await findGatewayRoute(slug, serverName);
    if (!route?.enabled) return jsonError(404, "not_found", `No server named "${serverName}" is offered at this endpoint`);
    const principal = await authenticateGateway(request, route, resource);
    const body = request.method === "POST" ? await readBody(request) : null;
    if (body && body.parsed === undefined) return rpcError(400, null, -32700, "Parse error: the body is not JSON");
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) return await existing(request, body, sessionId, route, principal);
    if (request.method !== "POST") return jsonError(400, "bad_request", "Mcp-Session-Id header is required (send initialize first)");
    // A modern-era (2026-07-28) host: no session, every request stands alone.
    if (!isInitialize(body!.parsed) && !(await isLegacyRequest(request, body!.parsed))) return await bridgeServer(request, body!, route, principal);
    if (!isInitialize(body?.parsed)) return rpcError(400, null, RPC.invalidRequest, "Bad Request: send initialize first to open a session");
    return await opened(request, body!, route, principal);
  });
}

async function existing(request: Request, body: Body | null, sessionId: string, route: GatewayRoute, principal: GatewayPrincipal): Promise<Response> {
  const relay = relays.get(sessionId);
  const owner = relay && owners.get(relay);
  if (!relay || !owner) {
    const row = await q.findConnection({ id: sessionId });
    if (row && !row.endedAt && row.userId === principal.userId && row.instanceId && row.instanceId !== instanceId() && instanceUrl(row.instanceId)) {
      return forwardRequest(request, body?.text ?? null, new ServedElsewhere(row.instanceId, "This MCP session"));
    }
    return rpcError(404, null, -32001, "Session not found: initialize a new session");
  }
  if (owner.userId !== principal.userId || owner.serverId !== route.serverId) return rpcError(404, null, -32001, "Session not found: initialize a new session");
  owner.principal = principal;
  owner.route = route;
  if (Date.now() - owner.touchedAt > TOUCH_EVERY_MS) {
    owner.touchedAt = Date.now();
    void q.touchConnection({ id: sessionId }).catch(() => undefined);
  }
  const answer = await relay.downstream.handleRequest(request, body ? { parsedBody: body.parsed } : undefined);
  return isOneRequest(body?.parsed) ? jsonWhenQuick(answer, request.signal) : answer;
}

function isOneRequest(message: unknown): boolean {
  const m = message as { id?: unknown; method?: unknown } | null | undefined;
  return Boolean(m) && !Array.isArray(m) && typeof m!.method === "string" && (typeof m!.id === "string" || typeof m!.id === "number");
}

async function opened(request: Request, body: Body, route: GatewayRoute, principal: GatewayPrincipal): Promise<Response> {
  const server = await serverHere(request, body, route, principal);
  if (server instanceof Response) return server;
  let config;
  try {
    config = await upstreamConfig(server);
  } catch (err) {
    const id = (body.parsed as { id?: string | number }).id ?? null;
    return rpcError(502, id, -32603, `"${server.name}" cannot be reached: ${err instanceof Error ? err.message : String(err)}`);
  }
  const kind = server.transport === "sse" ? "sse" : "streamable-http";
  const id = crypto.randomUUID();
  const relay: GatewayRelay = new GatewayRelay(id, openUpstream(config, kind).transport, hooksFor(id, server, (): Current => owners.get(relay)!, (err) => {
    if (server.transport !== "auto" || !SdkHttpError.isInstance(err) || ![400, 404, 405].includes(err.status)) return null;
    return openUpstream(config, "sse").transport;
  }));
  owners.set(relay, { userId: principal.userId, serverId: server.id, principal, route, touchedAt: Date.now() });
  relays.set(id, relay);
  await relay.start();
  const answer = await relay.downstream.handleRequest(request, { parsedBody: body.parsed });
  return isOneRequest(body.parsed) ? jsonWhenQuick(answer, request.signal) : answer;
}

function hooksFor(id: string, server: ServerSecretRow, current: () => Current, fallback: RelayHooks["fallback"]): RelayHooks {
  const tools = new Map<string, { name?: unknown; annotations?: { readOnlyHint?: unknown } | null }>();
  let client: string | null = null;
  // The credential the upstream session runs with does not change call by call: one lookup per session.
  let credential: ReturnType<typeof credentialUsed> | undefined;
  // Its end must not overtake the row's insert.
  let recorded: Promise<unknown> = Promise.resolve();
  const principal = () => current().principal;
  return {
    async admit(request, relay) {
      const { principal: who, route } = current();
      const filtered = route.readOnly || route.tools !== null;
      if (request.method !== "tools/call" && request.method !== "resources/read" && request.method !== "prompts/get") return null;
      if (request.method === "tools/call") {
        if (who.role === "viewer") return { code: RPC.forbidden, message: "Viewers cannot call tools, through the gateway either" };
        const name = String(request.params?.name ?? "");
        if (filtered) {
          if (!tools.has(name)) await learnTools(relay, tools).catch(() => undefined);
          const tool = tools.get(name);
          if (!tool || !offered(route, tool)) return { code: RPC.invalidParams, message: `Tool ${name} is not offered through this gateway` };
        }
      }
      return limit(route, who);
    },
    record(request) {
      const who = principal();
      const params = request.params ?? {};
      const name = String(request.method === "resources/read" ? params.uri : params.name);
      const { _meta: _ignored, ...shown } = params;
      credential ??= credentialUsed(server).catch(() => null);
      return credential.then((used) =>
        beginRelayedCall({ server, userId: who.userId, userName: who.userName, method: request.method as "tools/call", name, params: shown, origin: "gateway", client, credential: used }),
      );
    },
    shape(method, result) {
      if (method !== "tools/list") return result;
      for (const tool of (result.tools as { name?: unknown }[] | undefined) ?? []) if (typeof tool.name === "string") tools.set(tool.name, tool);
      return offeredTools(current().route, result);
    },
    // Written before the answer leaves: the host's next request may reach another instance, which
    // finds the session's owner in this row.
    async initialized(info) {
      client = [info.name, info.version].filter(Boolean).join(" ") || null;
      recorded = recordConnection(id, server, principal(), { name: info.name ?? null, version: info.version ?? null, protocolVersion: info.protocolVersion ?? null });
      await recorded;
    },
    ended(reason) {
      relays.delete(id);
      void recorded.then(() => q.endConnection({ id, reason })).catch(() => undefined);
    },
    fallback,
  };
}

async function learnTools(relay: GatewayRelay, tools: Map<string, { name?: unknown }>): Promise<void> {
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const result = await relay.request("tools/list", cursor ? { cursor } : {});
    for (const tool of (result.tools as { name?: unknown }[] | undefined) ?? []) if (typeof tool.name === "string") tools.set(tool.name, tool);
    cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
    if (!cursor) return;
  }
}

/** Ends one host's session (an admin's "Disconnect"); false when this instance does not hold it. */
export async function closeRelay(id: string, reason: string): Promise<boolean> {
  const relay = relays.get(id);
  if (!relay) return false;
  await relay.close(reason);
  return true;
}
