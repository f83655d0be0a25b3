import "server-only";
import { createMcpHandler, type McpHttpHandler, type McpRequestContext, type Server } from "@modelcontextprotocol/server";
import type { ListChangedKind } from "@/lib/mcp/server";
import { piece } from "@/lib/core/runtime";
import { BridgeScope, unwatchAll, type BridgeState, type BridgeTarget } from "./scope";
import { REACH_MS, Unreachable, within } from "./reach";
import { buildBridgeServer, type BridgeCurrent } from "./sdk-server";
import { IDLE_MS, unsubscribeUpstream, type PooledUpstream } from "./upstreams";

export type { BridgeMember, BridgeTarget } from "./scope";


/** A bridge: an SDK handler facing modern-era hosts (a server per request) whose handlers use the console's own clients upstream. */
interface BridgeEntry extends BridgeState {
  handler: McpHttpHandler;
  lastUsed: number;
  /** Open `subscriptions/listen` streams: a bridge with any is not idle. */
  listening: number;
}

/** The bridges by principal and endpoint path. */
export interface Bridges {
  entries: Map<string, BridgeEntry>;
}

const bridges = () => piece("gatewayBridges", (): Bridges => ({ entries: new Map() }));

/**
 * Serves one request of a modern-era (2026-07-28) host, on a server's endpoint or the aggregated
 * one: no session, every request stands alone (legacy-era requests are refused here; the relay
 * and lib/gateway/bridge/sessions.ts serve those). Auth, route and exposure were checked by the caller.
 */
export async function serveBridged(request: Request, parsedBody: unknown, target: BridgeTarget): Promise<Response> {
  const key = `${target.principal.limitKey}\n${target.path}`;
  let entry = bridges().entries.get(key);
  if (!entry) bridges().entries.set(key, (entry = newEntry(target.path)));
  entry.lastUsed = Date.now();
  const method = (parsedBody as { method?: unknown } | undefined)?.method;
  const scope = new BridgeScope(target, entry);
  // What the aggregated endpoint declares depends on its servers: asked where it is told.
  const shared = target.serverInfo !== null && (method === "server/discover" || method === "subscriptions/listen") ? await scope.shared() : undefined;
  const options = (body: unknown) => ({
    parsedBody: body,
    authInfo: { token: "", clientId: target.principal.oauthClientId ?? target.principal.tokenId ?? "", scopes: [], extra: { bridge: { target, state: entry, shared } } },
  });
  if (method !== "subscriptions/listen") return entry.handler.fetch(request, options(parsedBody));
  // A listen stream is answered by the SDK itself, with no handler of ours: the upstreams whose
  // list_changed it carries are opened (and kept open, and the bridge with them) here, for as long as it lasts.
  const pinned = target.members.map((member) => scope.watch(member));
  for (const pooled of pinned) pooled.pins++;
  entry.listening++;
  // Acknowledged only once the upstreams are connected (and listening themselves); one that fails is left out.
  await Promise.allSettled(pinned.map((pooled) => within(pooled.ready, REACH_MS, "connecting")));
  // Its resource subscriptions, subscribed upstream first; the acknowledgement names only those that were.
  const { body, subscribed } = await subscribeListen(scope, parsedBody);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    for (const pooled of pinned) pooled.pins--;
    for (const [uri, pooled] of subscribed) void unsubscribeUpstream(pooled, uri);
    entry.listening--;
    entry.lastUsed = Date.now();
  };
  try {
    return whenEnded(await entry.handler.fetch(request, options(body)), release);
  } catch (err) {
    release();
    throw err;
  }
}

/** Subscribes upstream to a listen request's `resourceSubscriptions`; the request is returned with only those that were. */
async function subscribeListen(scope: BridgeScope, parsedBody: unknown): Promise<{ body: unknown; subscribed: [string, PooledUpstream][] }> {
  const message = parsedBody as { params?: { notifications?: { resourceSubscriptions?: unknown } } };
  const requested = message.params?.notifications?.resourceSubscriptions;
  if (!Array.isArray(requested) || requested.length === 0) return { body: parsedBody, subscribed: [] };
  const uris = [...new Set(requested.filter((u): u is string => typeof u === "string"))];
  const pooled = await Promise.all(uris.map((uri) => scope.subscribe(uri)));
  const subscribed = uris.flatMap((uri, i) => (pooled[i] ? [[uri, pooled[i]] as [string, PooledUpstream]] : []));
  const notifications = { ...message.params!.notifications, resourceSubscriptions: subscribed.map(([uri]) => uri) };
  return { body: { ...message, params: { ...message.params, notifications } }, subscribed };
}

/** The same response, calling `ended` once its body is done with (read to the end, failed or cancelled). */
function whenEnded(response: Response, ended: () => void): Response {
  if (!response.body) {
    ended();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          ended();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        ended();
        controller.error(err);
      }
    },
    cancel(reason) {
      ended();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Ends bridges unused for IDLE_MS (the gateway's sweep job, lib/gateway/server.ts). */
export function sweepBridges(now = Date.now()): void {
  for (const [key, entry] of bridges().entries) {
    if (entry.listening > 0 || now - entry.lastUsed <= IDLE_MS) continue;
    bridges().entries.delete(key);
    unwatchAll(entry);
    void entry.handler.close().catch(() => undefined);
  }
}

function newEntry(path: string): BridgeEntry {
  const entry: BridgeEntry = {
    handler: createMcpHandler(build, { legacy: "reject", onerror: () => undefined }),
    lastUsed: Date.now(),
    listening: 0,
    resourceOwners: new Map(),
    watched: new Map(),
    listChanged: (kind: ListChangedKind) => {
      if (kind === "tools") entry.handler.notify.toolsChanged();
      else if (kind === "prompts") entry.handler.notify.promptsChanged();
      else entry.handler.notify.resourcesChanged();
    },
    // The SDK's listen streams pass it on to those whose filter names the URI.
    resourceUpdated: (uri: string) => entry.handler.notify.resourceUpdated(uri),
    unreachable: new Unreachable(
      () => path,
      () => {
        for (const kind of ["tools", "prompts", "resources"] as const) entry.listChanged(kind);
      },
    ),
  };
  return entry;
}

/** The per-request SDK server (lib/gateway/bridge/sdk-server.ts), for the request's principal and servers. */
function build(ctx: McpRequestContext): Promise<Server> {
  const bridged = (ctx.authInfo?.extra as { bridge: BridgeCurrent }).bridge;
  return buildBridgeServer(() => bridged);
}
