import type { LogLevel, LogMessage, ListChangedKind } from "@/lib/mcp/server";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import type { GatewayPrincipal } from "../auth";
import type { GatewayRoute } from "../routes";
import type { Unreachable } from "./reach";
import type { PooledUpstream } from "./upstreams";
import type { VirtualSpec } from "./virtual-names";

// What a bridge is made of and keeps (lib/gateway/bridge/scope.ts serves one request over it).

/** One exposed server behind a bridge. */
export interface BridgeMember {
  route: GatewayRoute;
  server: ServerSecretRow;
  /** Its namespace on the aggregated endpoint; null on the server's own endpoint. */
  prefix: string | null;
}

/** What one bridged request serves: who asks, through which endpoint, which servers. */
export interface BridgeTarget {
  /** The endpoint's path (one bridge per path and principal). */
  path: string;
  principal: GatewayPrincipal;
  /** Sorted by server name (lib/gateway/names.ts). */
  members: BridgeMember[];
  /** How the aggregated endpoint introduces itself; null: the server's own serverInfo. */
  serverInfo: { name: string; version: string } | null;
  /** A virtual server: only its tools are offered (renamed, described anew), no prompts or resources. */
  virtual?: VirtualSpec;
}

/** What a bridge keeps between requests (lib/gateway/bridge/bridge.ts). */
export interface BridgeState {
  /** Which server listed a resource URI, as seen by the latest resources/list (first server wins). */
  resourceOwners: Map<string, string>;
  /** Upstreams whose notifications this bridge passes on, each with what stops that (`unwatchAll`). */
  watched: Map<PooledUpstream, () => void>;
  listChanged(kind: ListChangedKind): void;
  /** A server's resources/updated, for whichever of the bridge's hosts subscribed to the URI. */
  resourceUpdated(uri: string): void;
  /** Only a legacy host's session on the aggregated endpoint (lib/gateway/bridge/sessions.ts) has one. */
  session?: BridgeSessionState;
  /** The aggregated endpoint's servers left out because they could not be reached, until they can (lib/gateway/bridge/reach.ts). */
  unreachable: Unreachable;
}

/** What a legacy host's session asked for with resources/subscribe and logging/setLevel. */
export interface BridgeSessionState {
  /** The URIs it subscribed to, and on which pooled connection. */
  subscriptions: Map<string, PooledUpstream>;
  /** Log lines below this level are not passed on; null: all are. */
  logLevel: LogLevel | null;
  /** A server's log line, passed on to the host. */
  log(member: BridgeMember, message: LogMessage): void;
}

/** What the servers behind an endpoint offer that the endpoint declares when any of them does. */
export interface SharedCapabilities {
  subscribe: boolean;
  logging: boolean;
}
