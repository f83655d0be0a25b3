import "server-only";
import { forwardRequest } from "@/lib/core/cluster/server";
import { ServedElsewhere } from "@/lib/core/errors";
import { cacheEpoch, piece } from "@/lib/core/runtime";
import { getServerActingAs, type ServerSecretRow } from "@/lib/domains/servers/server";
import { refuseElsewhere } from "@/lib/domains/sessions/server";
import type { GatewayPrincipal } from "./auth";
import type { Body } from "./http";
import * as q from "./queries";

/** What an endpoint path leads to: a server and how it is offered. */
export interface GatewayRoute {
  workspaceId: string;
  workspaceSlug: string;
  serverId: string;
  serverName: string;
  enabled: boolean;
  tools: string[] | null;
  readOnly: boolean;
  rateLimitPerMinute: number | null;
}

const ROUTE_CACHE_MS = 5_000;
const cache = () => piece("gatewayCache", () => new Map<string, { route: GatewayRoute | null; until: number }>());

/** The route of /mcp/<slug>/<server>, briefly cached (an exposure write empties the cache on every instance). */
export async function findGatewayRoute(slug: string, serverName: string): Promise<GatewayRoute | null> {
  const key = `${slug}\n${serverName}`;
  const hit = cache().get(key);
  if (hit && hit.until > Date.now()) return hit.route;
  const epoch = cacheEpoch("gatewayCache");
  const found = await q.findRoute({ slug, serverName });
  const route = found ? routeOf(found.workspace, found.server) : null;
  if (cache().size > 10_000) cache().clear();
  if (epoch === cacheEpoch("gatewayCache")) cache().set(key, { route, until: Date.now() + ROUTE_CACHE_MS });
  return route;
}

/** The offered servers of a workspace (its aggregated endpoint, /mcp/<slug>), or null when the slug is unknown. */
export async function findWorkspaceRoutes(slug: string): Promise<{ workspaceId: string; routes: GatewayRoute[] } | null> {
  const found = await q.findExposedServers({ slug });
  return found ? { workspaceId: found.workspace.id, routes: found.servers.map((server) => routeOf(found.workspace, server)) } : null;
}

type Found = NonNullable<Awaited<ReturnType<typeof q.findRoute>>>;

function routeOf(workspace: Found["workspace"], server: Found["server"]): GatewayRoute {
  const exposure = server.gatewayExposure;
  return {
    workspaceId: workspace.id,
    workspaceSlug: workspace.slug,
    serverId: server.id,
    serverName: server.name,
    enabled: exposure?.enabled ?? false,
    tools: exposure?.tools ? (JSON.parse(exposure.tools) as string[]) : null,
    readOnly: exposure?.readOnly ?? false,
    rateLimitPerMinute: exposure?.rateLimitPerMinute ?? null,
  };
}

/**
 * The route's server as the principal uses it, or the request forwarded to the instance that can
 * serve it (a stdio server whose agent is connected there).
 */
export async function serverHere(request: Request, body: Body, route: GatewayRoute, principal: GatewayPrincipal): Promise<ServerSecretRow | Response> {
  const server = await getServerActingAs({ workspaceId: route.workspaceId, userId: principal.userId }, route.serverId);
  try {
    refuseElsewhere(server);
    return server;
  } catch (err) {
    if (err instanceof ServedElsewhere) return forwardRequest(request, body.text, err);
    throw err;
  }
}
