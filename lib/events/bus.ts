import type { WorkspaceEvent } from "./index";
import { ReplayLog, type Replay } from "./replay";

// Loaded by server.ts (the relay) as well as by Next's bundles: nothing here may import "server-only".

/** Gets each event with its replay id (`<epoch>-<seq>`, the SSE `id:`). */
type Listener = (event: WorkspaceEvent, id: string) => void;

// On globalThis so that every module graph in the process (Next bundles, server.ts) shares one bus.
const bus = ((globalThis as { switchboardEvents?: Map<string, Set<Listener>> }).switchboardEvents ??= new Map());
const replay = ((globalThis as { switchboardReplay?: ReplayLog<WorkspaceEvent> }).switchboardReplay ??= new ReplayLog());

/** Stamps the event with the next id, keeps it for replay and hands it to the workspace's listeners. */
export function publish(workspaceId: string, event: WorkspaceEvent): void {
  const stamped = replay.append(workspaceId, event);
  for (const listener of bus.get(workspaceId) ?? []) listener(event, stamped.id);
}

/**
 * What a client that last saw `lastEventId` missed: the buffered events after it, or `reset`.
 * Synchronous, so replaying then subscribing in the same tick loses and repeats nothing.
 */
export function eventsSince(workspaceId: string, lastEventId: string): Replay<WorkspaceEvent> {
  return replay.since(workspaceId, lastEventId);
}

/** Listens to a workspace's events; returns the unsubscribe function. */
export function subscribe(workspaceId: string, listener: Listener): () => void {
  let set = bus.get(workspaceId);
  if (!set) bus.set(workspaceId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) bus.delete(workspaceId);
  };
}

/** How many listeners watch a workspace's event stream right now ("is anybody watching?"). */
export function subscriberCount(workspaceId: string): number {
  return bus.get(workspaceId)?.size ?? 0;
}
