import "server-only";

/** Events pushed to browsers watching a workspace (GET /api/v1/events). */
export type WorkspaceEvent =
  | { type: "server"; serverId: string; status: string }
  | { type: "list_changed"; serverId: string; kind: "tools" | "resources" | "prompts" }
  /** A subscribed resource changed (`notifications/resources/updated`); `at` is when the console heard it. */
  | { type: "resource_updated"; serverId: string; uri: string; at: string }
  /** The set of subscribed resources of a server's live session changed (subscribe, unsubscribe, dropped). */
  | { type: "resource_subscriptions"; serverId: string; sessionId: string | null; uris: string[]; dropped?: string[] };

type Listener = (event: WorkspaceEvent) => void;

// On globalThis so that every module graph in the process (Next bundles, server.ts) shares one bus.
const bus = ((globalThis as { switchboardEvents?: Map<string, Set<Listener>> }).switchboardEvents ??= new Map());

export function publish(workspaceId: string, event: WorkspaceEvent): void {
  for (const listener of bus.get(workspaceId) ?? []) listener(event);
}

export function subscribe(workspaceId: string, listener: Listener): () => void {
  let set = bus.get(workspaceId);
  if (!set) bus.set(workspaceId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) bus.delete(workspaceId);
  };
}
