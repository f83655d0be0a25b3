/** The resources a server's live session is subscribed to; `sessionId` null when it has no live session. */
export interface ResourceSubscriptionsDto {
  sessionId: string | null;
  uris: string[];
}

export const resourceKeys = {
  /** Under the server's detail key, so that reconnecting the server refreshes it. */
  subscriptions: (serverId: string) => ["servers", serverId, "subscriptions"] as const,
  /** When the console last heard `notifications/resources/updated` for a URI (fed by the event stream). */
  updated: (serverId: string, uri: string) => ["servers", serverId, "resource-updated", uri] as const,
};
