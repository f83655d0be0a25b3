import type { EventFanOut, WorkspaceEvent } from "./index";
import { ReplayLog, type Replay } from "./replay";
import { piece } from "@/lib/core/runtime";

// Loaded by lib/start's graph (the relay, the cluster channel) as well as by Next's bundles: nothing
// here may import "server-only".

/** Gets each event with its replay id (`<epoch>-<n>`, the SSE `id:`). */
type Listener = (event: WorkspaceEvent, id: string) => void;

export interface BusState {
  listeners: Map<string, Set<Listener>>;
  replay: ReplayLog<WorkspaceEvent>;
  fanOut: EventFanOut | null;
  /** Server-side waits (a held call's, lib/domains/approvals): they get events but are nobody watching. */
  observers?: Map<string, Set<Listener>>;
}

// In the process runtime, so that every module graph (Next bundles, lib/start's) shares one bus.
const state = () => piece<BusState>("events", () => ({ listeners: new Map(), replay: new ReplayLog<WorkspaceEvent>(), fanOut: null }));

/** Gives every event an id and hands it to the workspace's listeners, on every instance. */
export function publish(workspaceId: string, event: WorkspaceEvent): void {
  const id = state().replay.nextId();
  if (state().fanOut?.send(workspaceId, id, event)) return;
  deliver(workspaceId, id, event);
}

/** Keeps an event (ours or another instance's) for replay and hands it to this instance's listeners. */
export function deliver(workspaceId: string, id: string, event: WorkspaceEvent): void {
  state().replay.append(workspaceId, event, id);
  for (const listener of state().listeners.get(workspaceId) ?? []) listener(event, id);
  for (const listener of state().observers?.get(workspaceId) ?? []) listener(event, id);
}

/** Tells every listener its stream may have missed events (the channel between instances dropped). */
export function resetAll(): void {
  for (const set of state().listeners.values()) {
    const id = state().replay.nextId();
    for (const listener of set) listener({ type: "reset" }, id);
  }
}

export function setFanOut(fanOut: EventFanOut | null): void {
  state().fanOut = fanOut;
}

/**
 * What a client that last saw `lastEventId` missed: the buffered events after it, or `reset`.
 * Synchronous, so replaying then subscribing in the same tick loses and repeats nothing.
 */
export function eventsSince(workspaceId: string, lastEventId: string): Replay<WorkspaceEvent> {
  return state().replay.since(workspaceId, lastEventId);
}

/** Listens to a workspace's events; returns the unsubscribe function. */
export function subscribe(workspaceId: string, listener: Listener): () => void {
  let set = state().listeners.get(workspaceId);
  if (!set) state().listeners.set(workspaceId, (set = new Set<Listener>()));
  set.add(listener);
  state().fanOut?.watchersChanged(workspaceId, set.size);
  return () => {
    set.delete(listener);
    if (set.size === 0) state().listeners.delete(workspaceId);
    state().fanOut?.watchersChanged(workspaceId, set.size);
  };
}

/** Listens to a workspace's events without counting as a watcher; returns the unsubscribe function. */
export function observe(workspaceId: string, listener: Listener): () => void {
  const observers = (state().observers ??= new Map());
  let set = observers.get(workspaceId);
  if (!set) observers.set(workspaceId, (set = new Set<Listener>()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) observers.delete(workspaceId);
  };
}

/** How many listeners watch a workspace's event stream right now, on any instance ("is anybody watching?"). */
export function subscriberCount(workspaceId: string): number {
  return (state().listeners.get(workspaceId)?.size ?? 0) + (state().fanOut?.remoteWatchers(workspaceId) ?? 0);
}

/** Every workspace this instance has watchers for, with their number. */
export function localWatchers(): Map<string, number> {
  return new Map([...state().listeners].map(([workspaceId, set]) => [workspaceId, set.size]));
}
