import "server-only";
import { cacheEpoch, piece } from "@/lib/runtime";
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
const cache = piece("gatewayCache", () => new Map<string, { route: GatewayRoute | null; until: number }>());

/** The route of /mcp/<slug>/<server>, briefly cached (an exposure write empties the cache on every instance). */
export async function findGatewayRoute(slug: string, serverName: string): Promise<GatewayRoute | null> {
  const key = `${slug}\n${serverName}`;
  const hit = cache.get(key);
  if (hit && hit.until > Date.now()) return hit.route;
  const epoch = cacheEpoch("gatewayCache");
  const found = await q.findRoute({ slug, serverName });
  const exposure = found?.server.gatewayExposure;
  const route: GatewayRoute | null = found
    ? {
        workspaceId: found.workspace.id,
        workspaceSlug: found.workspace.slug,
        serverId: found.server.id,
        serverName: found.server.name,
        enabled: exposure?.enabled ?? false,
        tools: exposure?.tools ? (JSON.parse(exposure.tools) as string[]) : null,
        readOnly: exposure?.readOnly ?? false,
        rateLimitPerMinute: exposure?.rateLimitPerMinute ?? null,
      }
    : null;
  if (cache.size > 10_000) cache.clear();
  if (epoch === cacheEpoch("gatewayCache")) cache.set(key, { route, until: Date.now() + ROUTE_CACHE_MS });
  return route;
}
