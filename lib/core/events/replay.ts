import crypto from "node:crypto";

/**
 * The replay buffer behind the live channel: every published event gets an id
 * `<epoch>-<n>` from the instance that published it (the epoch changes with each console
 * start, so an id from before a restart is unknown), and the last events of each workspace
 * are kept, in the order this instance received them, so a reconnecting browser can be sent
 * what it missed. With several instances every one of them holds the same events in the same
 * order (lib/core/cluster), so an id from one instance is found on another.
 */

/** How many events a workspace keeps for replay, and for how long. */
export const REPLAY_MAX_EVENTS = 5000;
const REPLAY_MAX_AGE_MS = 10 * 60_000;

interface Stamped<E> {
  /** `<epoch>-<seq>`, sent as the SSE `id:` line. */
  id: string;
  seq: number;
  at: number;
  event: E;
}

/** What a reconnect with `Last-Event-ID` gets: the events after it, or `reset` when the gap is gone. */
export type Replay<E> = { kind: "events"; events: Stamped<E>[] } | { kind: "reset" };

interface WorkspaceBuffer<E> {
  events: Stamped<E>[];
}

export class ReplayLog<E> {
  readonly epoch = `${Date.now().toString(36)}${crypto.randomBytes(3).toString("hex")}`;
  private seq = 0;
  private issued = 0;
  private readonly buffers = new Map<string, WorkspaceBuffer<E>>();

  /** A new id for an event this instance publishes. */
  nextId(): string {
    return `${this.epoch}-${++this.issued}`;
  }

  /** Remembers an event for the workspace, under its publisher's id (a new one of ours by default). */
  append(workspaceId: string, event: E, id: string = this.nextId()): Stamped<E> {
    const seq = ++this.seq;
    const stamped = { id, seq, at: Date.now(), event };
    let buffer = this.buffers.get(workspaceId);
    if (!buffer) this.buffers.set(workspaceId, (buffer = { events: [] }));
    buffer.events.push(stamped);
    trim(buffer, stamped.at);
    return stamped;
  }

  /**
   * The events of a workspace after `lastEventId`. An id this instance does not hold (another
   * epoch: a restart; trimmed away; never seen) answers `reset`: the client must refetch what it
   * shows.
   */
  since(workspaceId: string, lastEventId: string): Replay<E> {
    const id = lastEventId.trim();
    const buffer = this.buffers.get(workspaceId);
    if (buffer) trim(buffer, Date.now());
    const events = buffer?.events ?? [];
    for (let i = events.length - 1; i >= 0; i--) {
      if (events[i]!.id === id) return { kind: "events", events: events.slice(i + 1) };
    }
    return { kind: "reset" };
  }
}

function trim<E>(buffer: WorkspaceBuffer<E>, now: number): void {
  const { events } = buffer;
  let cut = 0;
  while (cut < events.length && (events.length - cut > REPLAY_MAX_EVENTS || now - events[cut]!.at > REPLAY_MAX_AGE_MS)) cut++;
  if (cut > 0) events.splice(0, cut);
}
