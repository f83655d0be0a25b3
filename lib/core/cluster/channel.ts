import crypto from "node:crypto";
import pg from "pg";

// Started by lib/start, outside Next's bundles: nothing here may import "server-only".

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7900;
/** Pieces are cut by UTF-16 units; three bytes per unit at most (a surrogate pair is four for two). */
const PIECE_CHARS = 2600;
/** A larger message is refused rather than flooding every instance's notification queue. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const RECONNECT_MS = [250, 1000, 3000];

interface ChannelHandlers {
  message(text: string): void;
  /** The LISTEN connection is (again) up; messages sent while it was down are lost. */
  up(firstTime: boolean): void;
  down(reason: string): void;
}

export interface Channel {
  /** Sends to every listening instance, this one included, in one order that all of them see. */
  send(text: string): Promise<void>;
  connected(): boolean;
  close(): Promise<void>;
}

/**
 * One PostgreSQL connection that LISTENs and NOTIFYs on `name`. PostgreSQL delivers
 * notifications to every listener in commit order, so instances that take even their own
 * messages from the channel see one sequence. A message over one payload goes out as pieces in
 * one transaction, which PostgreSQL keeps together; the receiver joins them.
 */
export function openChannel(databaseUrl: string, name: string, handlers: ChannelHandlers): Channel {
  let client: pg.Client | null = null;
  let ready = false;
  let closed = false;
  let attempt = 0;
  const partial = new Map<string, string[]>();

  const receive = (payload: string) => {
    if (!payload.startsWith("~")) return handlers.message(payload);
    const [, id, index, count, ...rest] = payload.split("~");
    const pieces = partial.get(id!) ?? [];
    pieces[Number(index)] = rest.join("~");
    if (pieces.filter((p) => p !== undefined).length < Number(count)) return void partial.set(id!, pieces);
    partial.delete(id!);
    handlers.message(pieces.join(""));
  };

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: databaseUrl, application_name: "switchboard-channel" });
    c.on("notification", (n) => {
      if (n.channel === name && n.payload !== undefined) receive(n.payload);
    });
    c.on("error", (err) => lost(c, err.message));
    c.on("end", () => lost(c, "connection ended"));
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(name)}`);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    client = c;
    ready = true;
    handlers.up(attempt === 0);
    attempt = 0;
  };

  const lost = (c: pg.Client, reason: string) => {
    if (client !== c) return;
    client = null;
    ready = false;
    partial.clear();
    void c.end().catch(() => undefined);
    if (closed) return;
    handlers.down(reason);
    retry();
  };

  const retry = () => {
    const delay = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)]!;
    setTimeout(() => {
      if (!closed) connect().catch((err: Error) => (handlers.down(err.message), retry()));
    }, delay).unref();
  };

  const started = connect().catch((err: Error) => (handlers.down(err.message), retry()));
  // One message at a time: a big message's transaction must not take in another's notification.
  let queue: Promise<unknown> = started;

  const deliver = async (text: string) => {
    const c = client;
    if (!c || !ready) throw new Error("the instance channel is down");
    if (Buffer.byteLength(text) <= MAX_PAYLOAD_BYTES && !text.startsWith("~")) {
      await c.query("SELECT pg_notify($1, $2)", [name, text]);
      return;
    }
    if (Buffer.byteLength(text) > MAX_MESSAGE_BYTES) throw new Error(`message of ${Buffer.byteLength(text)} bytes is over the channel's ${MAX_MESSAGE_BYTES}`);
    const pieces = cut(text);
    const id = crypto.randomBytes(6).toString("base64url");
    // One transaction: its notifications reach every listener together and in order.
    await c.query("BEGIN");
    try {
      for (let i = 0; i < pieces.length; i++) await c.query("SELECT pg_notify($1, $2)", [name, `~${id}~${i}~${pieces.length}~${pieces[i]}`]);
      await c.query("COMMIT");
    } catch (err) {
      await c.query("ROLLBACK").catch(() => undefined);
      throw err;
    }
  };

  return {
    send(text) {
      const sent = queue.then(() => deliver(text));
      queue = sent.catch(() => undefined);
      return sent;
    },
    connected: () => ready,
    async close() {
      closed = true;
      const c = client;
      client = null;
      ready = false;
      await c?.end().catch(() => undefined);
    },
  };
}

/** Cuts by UTF-16 units without splitting a surrogate pair (half a pair is not valid text). */
function cut(text: string): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + PIECE_CHARS, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}
