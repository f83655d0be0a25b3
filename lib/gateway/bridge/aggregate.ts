import "server-only";
import { Reply, type ApiRequest } from "@/lib/api/reply";
import { timingOf, type Timing } from "@/lib/core/timing";
import { gatewayPath } from "@/lib/identity/auth";
import { getServerActingAs, type ServerSecretRow } from "@/lib/domains/servers/server";
import { authenticateGateway, resourceUrl, type GatewayPrincipal } from "../auth";
import { serveBridged, type BridgeMember } from "./bridge";
import type { BridgeTarget } from "./scope";
import { serveBridgeSession } from "./sessions";
import { answering, fetchRequestOf, isInitialize, jsonError, notAllowed, readBody, requireBearer, rpcError, timed, type Body } from "../http";
import { isLegacySse, serveLegacySse } from "../legacy-sse";
import { byName, serverPrefixes } from "../names";
import { hostOfRequest, hostSeen } from "../presence";
import { findWorkspaceRoutes, serverHere, type GatewayRoute } from "../routes";

/**
 * The aggregated endpoint as the console's pipeline hands it (lib/api/pipeline.ts): served from a
 * Fetch Request (the SDK's handlers take one), answered with Server-Timing (route and auth; the
 * bridge's own stages are not measured yet).
 */
export async function serveAggregateRequest(request: ApiRequest, slug: string): Promise<Reply> {
  const timing = timingOf(request);
  return timed(Reply.from(await handleAggregateRequest(fetchRequestOf(request), slug, timing)), timing);
}

/** A modern-era host on a server's own endpoint (lib/gateway/passthrough/endpoint.ts checked auth and route). */
export async function bridgeServer(request: Request, body: Body, route: GatewayRoute, principal: GatewayPrincipal): Promise<Response> {
  const server = await serverHere(request, body, route, principal);
  if (server instanceof Response) return server;
  const target = bridgeTarget(route, server, principal);
  hostSeen(target, hostOfRequest(body.parsed));
  return serveBridged(request, body.parsed, target);
}

/** A server's own endpoint as a bridge serves it: one member, its names unprefixed. */
export function bridgeTarget(route: GatewayRoute, server: ServerSecretRow, principal: GatewayPrincipal): BridgeTarget {
  return { path: gatewayPath(route.workspaceSlug, route.serverName), principal, members: [{ route, server, prefix: null }], serverInfo: null };
}

/**
 * One HTTP request to the aggregated endpoint /mcp/<slug>: every offered server of the workspace
 * behind one MCP server, its tools and prompts under `<server>__<name>` (lib/gateway/names.ts).
 * Both eras: modern hosts per request (lib/gateway/bridge/bridge.ts), legacy hosts in sessions of their
 * own (lib/gateway/bridge/sessions.ts).
 */
export async function handleAggregateRequest(request: Request, slug: string, timing?: Timing): Promise<Response> {
  const resource = resourceUrl(request, slug);
  return answering(resource, async () => {
    requireBearer(request);
    const found = await findWorkspaceRoutes(slug);
    const at = timing?.since("route", timing.startedAt);
    if (!found) return jsonError(404, "not_found", `No workspace "${slug}" has a gateway endpoint here`);
    const principal = await authenticateGateway(request, { workspaceId: found.workspaceId }, resource);
    if (timing) timing.since("auth", at!);
    if (isLegacySse(request)) return await serveLegacySse(request, principal, (inner) => handleAggregateRequest(inner, slug));
    const body = request.method === "POST" ? await readBody(request) : null;
    if (body && body.parsed === undefined) return rpcError(400, null, -32700, "Parse error: the body is not JSON");
    const routes = byName(found.routes.map((route) => ({ ...route, name: route.serverName })));
    const prefixes = serverPrefixes(routes.map((route) => route.serverName));
    const members = await Promise.all(
      routes.map(async ({ name: _name, ...route }, i): Promise<BridgeMember | null> => {
        const server = await getServerActingAs({ workspaceId: found.workspaceId, userId: principal.userId }, route.serverId).catch(() => null);
        return server ? { route, server, prefix: prefixes[i]! } : null;
      }),
    );
    const target = {
      path: gatewayPath(slug),
      principal,
      members: members.filter((m): m is BridgeMember => m !== null),
      serverInfo: { name: `switchboard/${slug}`, version: "1.0.0" },
    };
    const sessionId = request.headers.get("mcp-session-id");
    if (!sessionId && request.method === "GET") return notAllowed();
    if (sessionId || (body && isInitialize(body.parsed))) return serveBridgeSession(request, body?.parsed, target, sessionId);
    hostSeen(target, hostOfRequest(body?.parsed));
    return serveBridged(request, body?.parsed, target);
  });
}
