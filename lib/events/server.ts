import "server-only";
import { ReplayLog, type Replay } from "./replay";

/** Events pushed to browsers watching a workspace (GET /api/v1/events). */
export type WorkspaceEvent =
  /** A `notifications/message` log line, as stored (`log.id` is the SessionLog row id). */
  | { type: "log"; serverId: string; sessionId: string; log: LogLineEvent }
  /** The outcome of a ping (manual or the periodic health check) of a live session. */
  | { type: "health"; serverId: string; sessionId: string; health: "healthy" | "unhealthy"; latencyMs: number | null; error: string | null; at: string }
  /** The client's replay position is gone (restart or trimmed buffer): refetch what is shown. Sent only by the stream. */
  | { type: "reset" }
  | { type: "server"; serverId: string; status: string }
  | { type: "list_changed"; serverId: string; kind: "tools" | "resources" | "prompts" }
  /** A subscribed resource changed (`notifications/resources/updated`); `at` is when the console heard it. */
  | { type: "resource_updated"; serverId: string; uri: string; at: string }
  /** The set of subscribed resources of a server's live session changed (subscribe, unsubscribe, dropped). */
  | { type: "resource_subscriptions"; serverId: string; sessionId: string | null; uris: string[]; dropped?: string[] }
  /** A server-initiated request waiting for a person was created or settled (lib/interactions). */
  | { type: "interaction"; serverId: string; interactionId: string; status: string }
  /** A running call's `notifications/progress` (match it by `requestId`, the caller's id). */
  | { type: "progress"; serverId: string; callId: string; requestId: string; progress: number; total?: number; message?: string }
  /** A task-augmented call's task changed state; `callStatus` is the call's own status. */
  | { type: "task"; serverId: string; callId: string; requestId: string; taskId: string; status: string; statusMessage: string | null; callStatus: string };

/** A log line as the live channel carries it (the shape the logs API lists). */
export interface LogLineEvent {
  id: number;
  level: string;
  logger: string | null;
  data: unknown;
  at: string;
}

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

/** The id of the newest event published in the process (where a fresh stream starts). */
export function latestEventId(): string {
  return replay.lastId;
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

export { eventStreamResponse, type EventStreamOptions } from "./stream";
