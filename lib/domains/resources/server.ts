import "server-only";
import type { Principal } from "@/lib/core/access";
import { SwitchboardError } from "@/lib/core/errors";
import { publish } from "@/lib/core/events/server";
import { getServer, getServerForCall } from "@/lib/domains/servers/server";
import { getConnection, getLiveConnection, refuseElsewhere, upstream } from "@/lib/domains/sessions/server";
import type { ResourceSubscriptionsDto } from "./index";

/**
 * Subscribes the server's live session (opening one if needed) to a resource. Updates arrive on
 * GET /api/v1/events as `resource_updated`. Fails with 400 if the server lacks `resources.subscribe`.
 */
export async function subscribeResource(principal: Principal, serverId: string, uri: string): Promise<ResourceSubscriptionsDto> {
  const server = await getServerForCall(principal, serverId);
  const { sessionId, connection } = await getConnection(server);
  const caps = connection.info.capabilities as { resources?: { subscribe?: boolean } } | null;
  if (!caps?.resources?.subscribe) {
    throw new SwitchboardError("bad_request", `"${server.name}" does not support resource subscriptions (resources.subscribe)`);
  }
  await upstream(server, () => connection.subscribeResource(uri));
  return changed(principal.workspaceId, serverId, { sessionId, uris: connection.resourceSubscriptions });
}

/** Unsubscribes; without a live session there is nothing to unsubscribe and no session is opened. */
export async function unsubscribeResource(principal: Principal, serverId: string, uri: string): Promise<ResourceSubscriptionsDto> {
  const server = await getServerForCall(principal, serverId);
  refuseElsewhere(server);
  const live = await getLiveConnection(serverId, principal.userId);
  if (!live) return { sessionId: null, uris: [] };
  await upstream(server, () => live.connection.unsubscribeResource(uri));
  return changed(principal.workspaceId, serverId, { sessionId: live.sessionId, uris: live.connection.resourceSubscriptions });
}

/** The live session's subscriptions (never opens a session). */
export async function listResourceSubscriptions(principal: Principal, serverId: string): Promise<ResourceSubscriptionsDto> {
  refuseElsewhere(await getServer(principal, serverId));
  const live = await getLiveConnection(serverId, principal.userId);
  return live ? { sessionId: live.sessionId, uris: live.connection.resourceSubscriptions } : { sessionId: null, uris: [] };
}

function changed(workspaceId: string, serverId: string, dto: ResourceSubscriptionsDto): ResourceSubscriptionsDto {
  publish(workspaceId, { type: "resource_subscriptions", serverId, ...dto });
  return dto;
}
