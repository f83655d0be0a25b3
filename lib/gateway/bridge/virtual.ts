import "server-only";
import type { Timing } from "@/lib/core/timing";
import { gatewayPath } from "@/lib/identity/auth";
import { getServerActingAs } from "@/lib/domains/servers/server";
import { findVirtualRoute } from "@/lib/domains/virtual-servers/server";
import { authenticateGateway, resourceUrl, type GatewayPrincipal } from "../auth";
import { isInitialize, jsonError, notAllowed, readBody, rpcError } from "../http";
import { isLegacySse, serveLegacySse } from "../legacy-sse";
import { hostOfRequest, hostSeen } from "../presence";
import { findGatewayRoute, type GatewayRoute } from "../routes";
import { serveBridged, type BridgeMember, type BridgeTarget } from "./bridge";
import { serveBridgeSession } from "./sessions";

type VirtualRoute = NonNullable<Awaited<ReturnType<typeof findVirtualRoute>>>;

/**
 * /mcp/<slug>/<name> when no server of that name is offered there: the virtual server of that
 * name (docs/gateway.md, "Virtual servers"), or null when there is none. Served by the bridge as
 * the aggregated endpoint is (both eras; a legacy host in a session of its own), offering exactly
 * its tools; each call goes to the real server and tool, admitted and recorded as theirs.
 */
export async function handleVirtualRequest(request: Request, slug: string, name: string, timing?: Timing): Promise<Response | null> {
  const at = timing ? performance.now() : 0;
  const found = await findVirtualRoute(slug, name);
  if (!found) return null;
  const resource = resourceUrl(request, slug, found.name);
  const authAt = timing?.since("route", at);
  const principal = await authenticateGateway(request, { workspaceId: found.workspaceId }, resource);
  if (timing) timing.since("auth", authAt!);
  if (isLegacySse(request)) {
    return serveLegacySse(request, principal, async (inner) => (await handleVirtualRequest(inner, slug, name)) ?? jsonError(404, "not_found", `No server named "${name}" is offered at this endpoint`));
  }
  const body = request.method === "POST" ? await readBody(request) : null;
  if (body && body.parsed === undefined) return rpcError(400, null, -32700, "Parse error: the body is not JSON");
  const target: BridgeTarget = {
    path: gatewayPath(slug, found.name),
    principal,
    members: await membersOf(found, principal),
    serverInfo: { name: `switchboard/${slug}/${found.name}`, version: "1.0.0" },
    virtual: { name: found.name, tools: found.tools },
  };
  const sessionId = request.headers.get("mcp-session-id");
  if (!sessionId && request.method === "GET") return notAllowed();
  if (sessionId || (body && isInitialize(body.parsed))) return serveBridgeSession(request, body?.parsed, target, sessionId);
  hostSeen(target, hostOfRequest(body?.parsed));
  return serveBridged(request, body?.parsed, target);
}

/**
 * The servers behind a virtual server, in the order its tools first name them: active servers of
 * the workspace only (an archived or deleted one's tools are not offered), whether or not they are
 * offered at their own endpoint. Their exposure's tool allow-list and read-only setting do not
 * apply (the virtual server's list is its own); their rate limit per token does.
 */
async function membersOf(found: VirtualRoute, principal: GatewayPrincipal): Promise<BridgeMember[]> {
  const ids = [...new Set(found.tools.map((tool) => tool.serverId))];
  const members = await Promise.all(
    ids.map(async (id): Promise<BridgeMember | null> => {
      const server = await getServerActingAs({ workspaceId: found.workspaceId, userId: principal.userId }, id).catch(() => null);
      if (!server) return null;
      const exposed = await findGatewayRoute(found.workspaceSlug, server.name);
      const route: GatewayRoute = {
        workspaceId: found.workspaceId,
        workspaceSlug: found.workspaceSlug,
        serverId: server.id,
        serverName: server.name,
        enabled: true,
        tools: null,
        readOnly: false,
        rateLimitPerMinute: exposed?.serverId === server.id ? exposed.rateLimitPerMinute : null,
      };
      return { route, server, prefix: null };
    }),
  );
  return members.filter((m): m is BridgeMember => m !== null);
}
