import crypto from "node:crypto";
import type { Principal } from "@/lib/auth";
import type { ClusterRegistry } from "@/lib/cluster";
import type { DbClient } from "@/lib/db/client";
import type BetterSqlite3 from "better-sqlite3";
import type pg from "pg";
import type { BusState } from "@/lib/events/bus";
import type { Settlement } from "@/lib/interactions/broker";
import type { HubState } from "@/lib/relay/hub";
import type { RetentionScheduler } from "@/lib/retention/scheduler";
import type { TaskFollower } from "@/lib/calls/tasks";
import type { CallJournal } from "@/lib/calls/journal";
import type { SearchIndexer } from "@/lib/calls/search-index";
import type { HealthMonitor } from "@/lib/sessions/health";
import type { LiveEntry } from "@/lib/sessions/server";
import type { TrafficWriter } from "@/lib/traffic/writer";
import type { ServerSecretRow } from "@/lib/servers/queries";
import type { SecretValues } from "@/lib/redaction";
import type { RelaySession } from "@/lib/gateway/relay/endpoint";
import type { GatewayRoute } from "@/lib/gateway/routes";
import type { Bridges } from "@/lib/gateway/bridge/bridge";
import type { BridgeSessions } from "@/lib/gateway/bridge/sessions";
import type { Presences } from "@/lib/gateway/presence";
import type { UpstreamPool } from "@/lib/gateway/bridge/upstreams";
import type { InputCalls } from "@/lib/gateway/bridge/input";
import type { GatewayGrant } from "@/lib/gateway-auth";
import type { RateLimiterMemory } from "rate-limiter-flexible";

// Loaded by server.ts and by Next's bundles: nothing here may import "server-only".

/**
 * Everything this process keeps in memory, in one object. server.ts creates it before anything
 * else (`startRuntime`); each domain takes its part through `piece`, created on first use. It is
 * the one value on `globalThis` because the process runs two module graphs (server.ts under tsx,
 * Next's bundles) that must share it; nothing else is.
 */
export interface Runtime {
  /** This console instance (lib/instances): stamped on calls and server requests, announced to other instances. */
  readonly instanceId: string;
  readonly startedAt: Date;
  /** lib/db: the Prisma client. */
  db?: DbClient;
  /** lib/db: the driver connection under the Prisma client (SQLite handle or PostgreSQL pool). */
  dbDriver?: { sqlite?: BetterSqlite3.Database; pool?: pg.Pool };
  /** lib/events: listeners, the replay buffer and the fan-out to other instances. */
  events?: BusState;
  /** lib/relay: connected agents, relayed sessions, agents connected to other instances. */
  relay?: HubState;
  /** lib/cluster: other instances' URLs and watchers. */
  cluster?: ClusterRegistry;
  /** lib/sessions: live MCP connections by server (or server and member). */
  sessions?: Map<string, LiveEntry>;
  /** lib/sessions: the periodic ping of live sessions. */
  health?: HealthMonitor;
  /** lib/calls: calls in flight by workspace and request id, so that a cancel reaches them. */
  runningCalls?: Map<string, AbortController>;
  /** lib/calls: the prepared statements of the call journal, once opened. */
  callJournal?: { journal: Promise<CallJournal> | null };
  /** lib/calls: the SQLite history search indexer (finished calls indexed in batches behind the call path). */
  searchIndexer?: SearchIndexer;
  /** lib/db/bulk.ts: prepared inserts per SQLite connection. */
  bulkInserters?: WeakMap<BetterSqlite3.Database, Map<string, (rows: unknown[][]) => void>>;
  /** lib/calls: task calls being followed, by call id. */
  taskFollowers?: Map<string, TaskFollower>;
  /** lib/calls: how the instance heartbeat hands over the task calls it claimed (null until Next's graph registered it). */
  taskResumer?: { follow: ((callIds: string[]) => void) | null; waiting: string[] };
  /** lib/interactions: server requests waiting for a person, by interaction id. */
  interactionWaiters?: Map<string, (settlement: Settlement) => void>;
  /** lib/traffic: the batched writer of recorded JSON-RPC traffic. */
  trafficWriter?: TrafficWriter;
  /** lib/retention: the hourly purge. */
  retention?: RetentionScheduler;
  /** lib/auth: verified API tokens by hash (cleared on revocation or a membership change). */
  tokenCache?: Map<string, { principal: Principal; until: number }>;
  /** lib/gateway-auth: verified gateway OAuth access tokens by hash and resource (cleared on revocation). */
  gatewayTokenCache?: Map<string, { grant: GatewayGrant | null; until: number }>;
  /** lib/servers: server rows with their secrets for the call path (cleared on any server write). */
  serverCache?: Map<string, { row: ServerSecretRow; until: number }>;
  /** lib/oauth: each server's stored secret values, to mask in what is recorded and shared (emptied with serverCache). */
  serverSecrets?: Map<string, { secrets: Promise<SecretValues>; epoch: number; until: number; latest: SecretValues }>;
  /** How many times each cache was emptied: a read that began before a forget must not be cached. */
  cacheEpochs?: Record<CacheName, number>;
  /** lib/cluster: tells the other instances to forget a cache too (set while the channel runs). */
  cacheAnnouncer?: (name: CacheName) => void;
  /** lib/gateway: relayed host sessions by id (the Mcp-Session-Id a host sends), each with who opened it. */
  gatewayRelays?: Map<string, RelaySession>;
  /** lib/gateway: endpoint path → server and exposure, briefly cached (cleared on any exposure write). */
  gatewayCache?: Map<string, { route: GatewayRoute | null; until: number }>;
  /** lib/gateway: upstream connections of bridged hosts (modern era, aggregated endpoint), by principal and server. */
  gatewayUpstreams?: UpstreamPool;
  /** lib/gateway: the SDK handlers facing bridged hosts, by principal and endpoint path. */
  gatewayBridges?: Bridges;
  /** lib/gateway: legacy-era hosts' sessions on the aggregated endpoint, by session id. */
  gatewayBridgeSessions?: BridgeSessions;
  /** lib/gateway: hosts without a relay session (modern era, aggregated endpoint) under Connected clients. */
  gatewayPresence?: Presences;
  /** lib/gateway: bridged calls waiting for their host's answers to the server's requests, by id (sealed in requestState). */
  gatewayInputCalls?: InputCalls;
  /** lib/gateway: calls per minute per token and server, one limiter per limit. */
  gatewayLimiters?: Map<number, RateLimiterMemory>;
  /** lib/net: each workspace's allow-listed networks, briefly cached. */
  allowedNetworks?: Map<string, { at: number; allowed: Promise<string[]> }>;
  /** lib/workspaces: the one-time set-up code. */
  setupCode?: string;
}

type Piece = Exclude<keyof Runtime, "instanceId" | "startedAt" | "cacheAnnouncer">;

/** Caches that every instance must empty at once when what they hold changes anywhere. */
export type CacheName = "tokenCache" | "serverCache" | "gatewayCache" | "gatewayTokenCache";

const slot = globalThis as { switchboard?: Runtime };

/** Creates the process's runtime (server.ts, first thing). Calling it again returns the same one. */
export function startRuntime({ instanceId = process.env.SWITCHBOARD_INSTANCE_ID || crypto.randomUUID() }: { instanceId?: string } = {}): Runtime {
  return (slot.switchboard ??= { instanceId, startedAt: new Date() });
}

/** The process's runtime (created on first use where server.ts did not run: scripts, unit tests, the build). */
export function runtime(): Runtime {
  return slot.switchboard ?? startRuntime();
}

/** A domain's part of the runtime, created by `create` the first time any module graph asks. */
export function piece<K extends Piece>(key: K, create: () => NonNullable<Runtime[K]>): NonNullable<Runtime[K]> {
  const rt = runtime();
  return (rt[key] ??= create()) as NonNullable<Runtime[K]>;
}

/**
 * Empties one of the process's caches, and (unless `announce` is false: the message came from
 * another instance) has every other instance empty its own (lib/cluster).
 */
export function forgetCache(name: CacheName, { announce = true }: { announce?: boolean } = {}): void {
  const rt = runtime();
  rt[name]?.clear();
  const epochs = piece("cacheEpochs", () => ({ tokenCache: 0, serverCache: 0, gatewayCache: 0, gatewayTokenCache: 0 }));
  epochs[name] += 1;
  if (announce) rt.cacheAnnouncer?.(name);
}

/** The cache's epoch now; store what a read found only if the epoch is still the same after it. */
export function cacheEpoch(name: CacheName): number {
  return piece("cacheEpochs", () => ({ tokenCache: 0, serverCache: 0, gatewayCache: 0, gatewayTokenCache: 0 }))[name];
}
