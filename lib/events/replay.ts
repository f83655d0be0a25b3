/**
 * The replay buffer behind the live channel: every published event gets an id
 * `<epoch>-<seq>` (seq grows by one per event in the process; the epoch changes with each
 * console start, so an id from before a restart is recognised as unknown), and the last
 * events of each workspace are kept so a reconnecting browser can be sent what it missed.
 */

/** How many events a workspace keeps for replay, and for how long. */
export const REPLAY_MAX_EVENTS = 5000;
export const REPLAY_MAX_AGE_MS = 10 * 60_000;

export interface Stamped<E> {
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
  /** The seq of the newest event trimmed away (0: nothing lost yet). */
  droppedUpTo: number;
}

export class ReplayLog<E> {
  readonly epoch = Date.now().toString(36);
  private seq = 0;
  private readonly buffers = new Map<string, WorkspaceBuffer<E>>();

  /** Stamps an event and remembers it for the workspace. */
  append(workspaceId: string, event: E): Stamped<E> {
    const seq = ++this.seq;
    const stamped = { id: `${this.epoch}-${seq}`, seq, at: Date.now(), event };
    let buffer = this.buffers.get(workspaceId);
    if (!buffer) this.buffers.set(workspaceId, (buffer = { events: [], droppedUpTo: 0 }));
    buffer.events.push(stamped);
    trim(buffer, stamped.at);
    return stamped;
  }

  /**
   * The events of a workspace after `lastEventId`. An id of another epoch (the console restarted)
   * or one whose successors were trimmed answers `reset`: the client must refetch what it shows.
   * Sequence numbers are process-wide, so gaps within one workspace are normal, not losses.
   */
  since(workspaceId: string, lastEventId: string): Replay<E> {
    const match = /^([0-9a-z]+)-(\d+)$/.exec(lastEventId.trim());
    if (!match || match[1] !== this.epoch) return { kind: "reset" };
    const after = Number(match[2]);
    if (after > this.seq) return { kind: "reset" };
    const buffer = this.buffers.get(workspaceId);
    if (!buffer) return { kind: "events", events: [] };
    trim(buffer, Date.now());
    if (after < buffer.droppedUpTo) return { kind: "reset" };
    return { kind: "events", events: buffer.events.filter((e) => e.seq > after) };
  }
}

function trim<E>(buffer: WorkspaceBuffer<E>, now: number): void {
  const { events } = buffer;
  let cut = 0;
  while (cut < events.length && (events.length - cut > REPLAY_MAX_EVENTS || now - events[cut]!.at > REPLAY_MAX_AGE_MS)) cut++;
  if (cut > 0) buffer.droppedUpTo = events.splice(0, cut)[cut - 1]!.seq;
}
