import "server-only";
import crypto from "node:crypto";
import { openConnection, type ListChangedKind, type LogMessage, type McpConnection, type ServerRequest, type ServerRequestOutcome } from "@/lib/mcp/server";
import type { Credential } from "../recorder";
import { config } from "@/lib/core/config";
import { piece } from "@/lib/core/runtime";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import { announceConnected, upstreamFailure } from "@/lib/domains/sessions/server";
import { connectionConfig } from "../connect";

/** How long a bridged upstream connection (and a bridge) lives without a request. */
export const IDLE_MS = config().gatewayIdleMs;

/** One console client to a server, shared by the bridged requests of one principal (lib/gateway/bridge/bridge.ts). */
export interface PooledUpstream {
  key: string;
  serverId: string;
  ready: Promise<McpConnection>;
  /** Who hears the server's list_changed (the bridge handlers' subscriptions/listen streams). */
  listeners: Set<(kind: ListChangedKind) => void>;
  /** Who hears the server's resources/updated (bridges whose hosts subscribed to some URI). */
  updateListeners: Set<(uri: string) => void>;
  /** Who hears the server's log lines (legacy hosts' sessions on the aggregated endpoint). */
  logListeners: Set<(message: LogMessage) => void>;
  /** Subscribed URIs, by how many host subscriptions need each: subscribed upstream while any do. */
  subscribed: Map<string, number>;
  lastUsed: number;
  /** Open `subscriptions/listen` streams that need it: never closed as idle while there are any. */
  pins: number;
  /** Whose OAuth credential it runs with (recorded on each call), looked up once per connection. */
  credential?: Credential;
  /**
   * Declares elicitation, sampling and roots upstream (for hosts that declared any of them). Such a
   * connection carries one call at a time (`holder`), so a server request always belongs to it.
   */
  capable: boolean;
  /** The call that has this (capable) connection now: it answers the server's requests. */
  holder: ServerRequestHandler | null;
}

export type ServerRequestHandler = (request: ServerRequest, signal: AbortSignal) => Promise<ServerRequestOutcome>;

/** Upstream connections of bridged (modern-era and aggregated) hosts, by principal and server. */
export class UpstreamPool {
  readonly entries = new Map<string, PooledUpstream>();

  /** Closes every connection of one server (its exposure turned off), or all (the instance stops). */
  async close(filter: (entry: PooledUpstream) => boolean = () => true): Promise<void> {
    const closing = [...this.entries.values()].filter(filter);
    for (const entry of closing) this.drop(entry);
    await Promise.allSettled(closing.map(async (entry) => (await entry.ready.catch(() => null))?.close()));
  }

  drop(entry: PooledUpstream): void {
    if (this.entries.get(entry.key) !== entry) return;
    this.entries.delete(entry.key);
  }

  /** Closes connections unused for IDLE_MS (the gateway's sweep job, lib/gateway/server.ts). */
  sweep(now = Date.now()): Promise<void> {
    return this.close((entry) => entry.pins === 0 && entry.holder === null && now - entry.lastUsed > IDLE_MS);
  }
}

export const upstreamPool = () => piece("gatewayUpstreams", () => new UpstreamPool());

/**
 * The connection a principal's bridged requests use for a server, opened on first use with the
 * server's own configuration (as the console's sessions: headers, address policy, credential of
 * the person behind the token for per-member OAuth servers) and closed after IDLE_MS unused.
 */
export function upstreamFor(server: ServerSecretRow, principalKey: string, capable = false): PooledUpstream {
  const pool = upstreamPool();
  const key = `${principalKey}\n${server.id}`;
  const found = capable ? [...pool.entries.values()].find((e) => e.capable && e.key.startsWith(`${key}\n`)) : pool.entries.get(key);
  if (found) {
    found.lastUsed = Date.now();
    return found;
  }
  return open(server, capable ? `${key}\n${crypto.randomUUID()}` : key, capable);
}

/**
 * A capable connection of the principal's for one call alone (an idle one reused, else a new one):
 * a server request on it is that call's. `release` hands it back.
 */
export function checkoutUpstream(server: ServerSecretRow, principalKey: string, holder: ServerRequestHandler): PooledUpstream {
  const prefix = `${principalKey}\n${server.id}\n`;
  const entry = [...upstreamPool().entries.values()].find((e) => e.capable && e.holder === null && e.key.startsWith(prefix)) ?? open(server, `${prefix}${crypto.randomUUID()}`, true);
  entry.holder = holder;
  entry.lastUsed = Date.now();
  return entry;
}

export function releaseUpstream(entry: PooledUpstream): void {
  entry.holder = null;
  entry.lastUsed = Date.now();
}

function open(server: ServerSecretRow, key: string, capable: boolean): PooledUpstream {
  const pool = upstreamPool();
  const entry: PooledUpstream = { key, serverId: server.id, ready: undefined as never, listeners: new Set(), updateListeners: new Set(), logListeners: new Set(), subscribed: new Map(), lastUsed: Date.now(), pins: 0, capable, holder: null };
  entry.ready = (async () => {
    try {
      const config = await connectionConfig(server, {
        onListChanged: (kind) => {
          for (const listener of entry.listeners) listener(kind);
        },
        onLog: (message) => {
          for (const listener of entry.logListeners) listener(message);
        },
        onResourceUpdated: (uri) => {
          for (const listener of entry.updateListeners) listener(uri);
        },
        onClose: () => pool.drop(entry),
        ...(capable ? { onServerRequest: (request: ServerRequest, signal: AbortSignal) => (entry.holder ?? noCall)(request, signal) } : {}),
      });
      const connection = await openConnection(config);
      announceConnected({ workspaceId: server.workspaceId, serverId: server.id, serverName: server.name, lister: connection, live: () => pool.entries.get(key) === entry });
      return connection;
    } catch (err) {
      pool.drop(entry);
      throw upstreamFailure(server, err);
    }
  })();
  entry.ready.catch(() => undefined);
  pool.entries.set(key, entry);
  return entry;
}

/**
 * One host subscription to a resource: the first subscribes upstream, later ones only count. Throws
 * (and counts nothing) if the server refuses or lacks `resources.subscribe`.
 */
export async function subscribeUpstream(entry: PooledUpstream, uri: string): Promise<void> {
  const count = entry.subscribed.get(uri) ?? 0;
  entry.subscribed.set(uri, count + 1);
  // Subscribed, the connection is not idle.
  entry.pins++;
  if (count > 0) return;
  try {
    await (await entry.ready).subscribeResource(uri);
  } catch (err) {
    forget(entry, uri);
    throw err;
  }
}

/** The end of one host subscription: the last one unsubscribes upstream. Never throws. */
export async function unsubscribeUpstream(entry: PooledUpstream, uri: string): Promise<void> {
  if (forget(entry, uri) !== 0) return;
  const connection = await entry.ready.catch(() => null);
  await connection?.unsubscribeResource(uri).catch(() => undefined);
}

/** Counts one subscription less; returns how many are left (-1: there was none). */
function forget(entry: PooledUpstream, uri: string): number {
  const count = entry.subscribed.get(uri) ?? 0;
  if (count === 0) return -1;
  entry.pins--;
  if (count > 1) entry.subscribed.set(uri, count - 1);
  else entry.subscribed.delete(uri);
  return count - 1;
}

/** A server request on a capable connection between calls (e.g. a roots/list right after initialize): nobody to ask. */
async function noCall(request: ServerRequest): Promise<ServerRequestOutcome> {
  return { error: { code: -32603, message: `No call through the gateway is waiting on this connection to answer ${request.method}` } };
}

/** Ends the bridged connections of a server (its exposure was turned off here). */
export function closeUpstreamsOf(serverId: string): Promise<void> {
  return upstreamPool().close((entry) => entry.serverId === serverId);
}
