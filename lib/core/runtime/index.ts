import crypto from "node:crypto";

// Loaded by lib/start's graph and by Next's bundles: nothing here may import "server-only".

/**
 * Everything this process keeps in memory, in one object: the instance's identity and each
 * domain's part ("piece"), created by that domain on first use. It is the one value on
 * `globalThis` because Next's bundles (pages, better-auth, the proxy) load lib/ in a module graph
 * of their own beside the console's (lib/start); nothing else is. The runtime names no domain's
 * types — each piece's type is its owner's — so no domain's types loop back through it.
 */
export interface Runtime {
  /** This console instance (lib/core/instances): stamped on calls and server requests, announced to other instances. */
  readonly instanceId: string;
  readonly startedAt: Date;
  /** lib/core/cluster: tells the other instances to forget a cache too (set while the channel runs). */
  cacheAnnouncer?: (name: CacheName) => Promise<void>;
  readonly pieces: { [K in PieceName]?: unknown };
}

/** The pieces, each with the domain that owns it. */
interface Pieces {
  /** lib/core/db: the Prisma client. */
  db: unknown;
  /** lib/core/db: the driver connection under the Prisma client (SQLite handle or PostgreSQL pool). */
  dbDriver: unknown;
  /** lib/core/events: listeners, the replay buffer and the fan-out to other instances. */
  events: unknown;
  /** lib/relay: connected agents, relayed sessions, agents connected to other instances. */
  relay: unknown;
  /** lib/core/cluster: other instances' URLs and watchers. */
  cluster: unknown;
  /** lib/domains/sessions: live MCP connections by server (or server and member). */
  sessions: unknown;
  /** lib/domains/sessions: listeners told of every session that connected (lib/start registers drift's). */
  sessionListeners: unknown;
  /** lib/domains/sessions: each live session's last ping round trip here (the network's share of a call, lib/domains/calls/timing.ts). */
  sessionPings: unknown;
  /** lib/watch/drift: live connections by server on this instance (whoever owns them), snapshots in progress. */
  drift: unknown;
  /** lib/domains/calls: calls in flight by workspace and request id, so that a cancel reaches them. */
  runningCalls: unknown;
  /** lib/domains/calls: the prepared statements of the call journal, once opened. */
  callJournal: unknown;
  /** lib/domains/calls: the SQLite history search indexer (finished calls indexed in batches behind the call path). */
  searchIndexer: unknown;
  /** lib/core/db/bulk.ts: prepared inserts per SQLite connection. */
  bulkInserters: unknown;
  /** lib/domains/calls: task calls being followed, by call id. */
  taskFollowers: unknown;
  /** lib/domains/interactions: server requests waiting for a person, by interaction id. */
  interactionWaiters: unknown;
  /** lib/domains/traffic: the batched writer of recorded JSON-RPC traffic. */
  trafficWriter: unknown;
  /** lib/domains/traffic: secret values calls handed in, masked in their session's traffic from then on. */
  sessionSecrets: unknown;
  /** lib/identity/auth: verified API tokens by hash (cleared on revocation or a membership change). */
  tokenCache: unknown;
  /** lib/identity/gateway-auth: verified gateway OAuth access tokens by hash and resource (cleared on revocation). */
  gatewayTokenCache: unknown;
  /** lib/domains/servers: server rows with their secrets for the call path (cleared on any server write). */
  serverCache: unknown;
  /** lib/domains/server-oauth: each server's stored secret values, to mask in what is recorded and shared (emptied with serverCache). */
  serverSecrets: unknown;
  /** How many times each cache was emptied: a read that began before a forget must not be cached. */
  cacheEpochs: unknown;
  /** lib/gateway: relayed host sessions by id (the Mcp-Session-Id a host sends), each with who opened it. */
  gatewayRelays: unknown;
  /** lib/gateway: endpoint path → server and exposure, briefly cached (cleared on any exposure write). */
  gatewayCache: unknown;
  /** lib/gateway: upstream connections of bridged hosts (modern era, aggregated endpoint), by principal and server. */
  gatewayUpstreams: unknown;
  /** lib/gateway: the SDK handlers facing bridged hosts, by principal and endpoint path. */
  gatewayBridges: unknown;
  /** lib/gateway: the SDK handler of mock servers (lib/gateway/mock.ts; stateless, one for all). */
  gatewayMockHandler: unknown;
  /** lib/domains/mocks: parsed mock files by mock id, with the row's updatedAt (bounded). */
  mockFiles: unknown;
  /** lib/gateway: legacy-era hosts' sessions on the aggregated endpoint, by session id. */
  gatewayBridgeSessions: unknown;
  /** lib/gateway: hosts without a relay session (modern era, aggregated endpoint) under Connected clients. */
  gatewayPresence: unknown;
  /** lib/gateway: bridged calls waiting for their host's answers to the server's requests, by id (sealed in requestState). */
  gatewayInputCalls: unknown;
  /** lib/gateway: legacy HTTP+SSE hosts' event streams, by the session id of their POST endpoint. */
  gatewayLegacyStreams: unknown;
  /** lib/domains/apps: the MCP Apps sandbox's port, set where lib/start started it (Next's graph builds app URLs with it). */
  appSandbox: unknown;
  /** lib/core/net: each workspace's allow-listed networks, briefly cached. */
  allowedNetworks: unknown;
  /** lib/team/workspaces: the one-time set-up code. */
  setupCode: unknown;
  /** lib/team/workspaces: a set-up under way (a second one is refused). */
  setupLock: unknown;
  /** lib/core/net: per host, whether a connection went to a non-public address (bounded). */
  reachedHosts: unknown;
  /** lib/core/net: one outbound connection pool per address policy. */
  outboundAgents: unknown;
  /** lib/core/net: whether the bad-entry warning about SWITCHBOARD_ALLOWED_NETWORKS was logged. */
  allowedNetworksWarned: unknown;
  /** lib/core/telemetry: whether spans are exported, the permalink origin, the SDK's shutdown. */
  telemetry: unknown;
  /** lib/domains/calls: each workspace's stored-call count, briefly cached (the history quota). */
  callQuotaCounts: unknown;
  /** lib/team/workspaces: the signed-in person's theme for page loads, by session cookie, briefly cached (cleared on a theme write). */
  pageThemes: unknown;
  /** lib/domains/shares: public links' built views by token hash (checked against the database on every view) and the view's prepared statements. */
  shareViews: unknown;
  /** lib/identity/auth: when each token's and member's last-used time was last written (throttled). */
  tokenUseWrites: unknown;
  memberActivityWrites: unknown;
  /** lib/team/members: its writes for the domains below it (lib/identity/auth's last activity, SSO's joining), installed by lib/start. */
  memberWrites: unknown;
  /** lib/core/mail: the SMTP transport for the configured URL. */
  mailTransport: unknown;
  /** lib/identity/sso: when each user's next re-check against the IdP is due, as this process last saw it. */
  ssoChecks: unknown;
  /** lib/identity/sso: each user's IdP groups from their stored ID tokens, briefly cached (dropped when a new one is stored). */
  ssoGroups: unknown;
  /** lib/domains/policies: each workspace's compiled rule set with when its version was last checked (cleared on any rule write). */
  policyCache: unknown;
  /** lib/domains/policies: the check of pinned definitions that lib/start registers (lib/watch/drift's). */
  policyGuard: unknown;
  /** lib/domains/policies: where a member's IdP groups come from, registered by lib/start (lib/identity/sso's). */
  policyGroups: unknown;
  /** lib/domains/policies: database-counted rate limits (rules, gateway exposures), one limiter per (scope, calls, seconds). */
  policyLimiters: unknown;
  /** lib/domains/approvals: the mail and webhook notice of a held call that lib/start registers (lib/watch/drift's). */
  approvalNotifier: unknown;
  /** lib/domains/quality: each capability snapshot's token total by snapshot id (snapshots never change; bounded). */
  snapshotTokens: unknown;
  /** lib/core/metrics: the Prometheus registry, the calls in flight with their labels, the label caps. */
  metrics: unknown;
  /** lib/domains/load-tests: the load tests running on this instance, by id, so that a cancel stops their calls in flight. */
  loadTests: unknown;
  /** lib/core/audit: whether each workspace streams call summaries to a sink, briefly cached (cleared on a sink change here). */
  callStreaming: unknown;
  /** lib/core/audit: the pending calls of streaming workspaces, by id, until their completion is recorded. */
  streamedCalls: unknown;
  /** lib/core/audit: the call journal's hook for call summaries (lib/domains/calls), installed by lib/start. */
  callStream: unknown;
}

export type PieceName = keyof Pieces;

/** Caches that every instance must empty at once when what they hold changes anywhere. */
export type CacheName = "tokenCache" | "serverCache" | "gatewayCache" | "gatewayTokenCache" | "policyCache";

const slot = globalThis as { switchboard?: Runtime };

/** Creates the process's runtime (lib/start, first thing). Calling it again returns the same one. */
export function startRuntime({ instanceId = crypto.randomUUID() }: { instanceId?: string } = {}): Runtime {
  return (slot.switchboard ??= { instanceId, startedAt: new Date(), pieces: {} });
}

/** The process's runtime (created on first use where lib/start did not run: scripts, unit tests, the build). */
export function runtime(): Runtime {
  return slot.switchboard ?? startRuntime();
}

/**
 * A domain's part of the runtime, created by `create` the first time any module graph asks. Its
 * type is the owner's: one domain owns each piece (the comment in `Pieces` names it).
 */
export function piece<T>(key: PieceName, create: () => T): T {
  const pieces = runtime().pieces as Record<PieceName, unknown>;
  return (pieces[key] ??= create()) as T;
}

/** A piece if it was created (a graceful stop closes what exists, and creates nothing). */
export function existingPiece<T>(key: PieceName): T | undefined {
  return runtime().pieces[key] as T | undefined;
}

const freshEpochs = (): Record<CacheName, number> => ({ tokenCache: 0, serverCache: 0, gatewayCache: 0, gatewayTokenCache: 0, policyCache: 0 });

/**
 * Empties one of the process's caches, and (unless `announce` is false: the message came from
 * another instance) has every other instance empty its own (lib/core/cluster). Awaited before a write
 * answers, so a request the caller sends next to another instance finds it already told.
 */
export async function forgetCache(name: CacheName, { announce = true }: { announce?: boolean } = {}): Promise<void> {
  existingPiece<{ clear(): void }>(name)?.clear();
  piece("cacheEpochs", freshEpochs)[name] += 1;
  if (announce) await runtime().cacheAnnouncer?.(name);
}

/** The cache's epoch now; store what a read found only if the epoch is still the same after it. */
export function cacheEpoch(name: CacheName): number {
  return piece("cacheEpochs", freshEpochs)[name];
}
