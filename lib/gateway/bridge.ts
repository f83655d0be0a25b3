import "server-only";
import { createMcpHandler, ProtocolError, Server, type McpHttpHandler, type McpRequestContext, type ServerContext } from "@modelcontextprotocol/server";
import type { ListChangedKind } from "@/lib/mcp/server";
import { piece } from "@/lib/runtime";
import { BridgeScope, refuseCall, type BridgeState, type BridgeTarget } from "./bridge-scope";
import { RPC } from "./policy";
import { IDLE_MS } from "./upstreams";

export type { BridgeMember, BridgeTarget } from "./bridge-scope";


/** A bridge: an SDK server facing hosts (both eras, per request) whose handlers use the console's own clients upstream. */
export interface BridgeEntry extends BridgeState {
  handler: McpHttpHandler;
  lastUsed: number;
  /** Open `subscriptions/listen` streams: a bridge with any is not idle. */
  listening: number;
}

/** The bridges by principal and endpoint path, and the timer that ends idle ones. */
export interface Bridges {
  entries: Map<string, BridgeEntry>;
  sweeper: NodeJS.Timeout | null;
}

const bridges = piece("gatewayBridges", (): Bridges => ({ entries: new Map(), sweeper: null }));

/**
 * Serves one request of a host that speaks without a session: a modern-era (2026-07-28) host on a
 * server's endpoint, or any host on the aggregated endpoint (`legacy: "stateless"` serves 2025-era
 * hosts there too, one fresh server per request). Auth, route and exposure were checked by the caller.
 */
export async function serveBridged(request: Request, parsedBody: unknown, target: BridgeTarget, legacy: "stateless" | "reject"): Promise<Response> {
  const key = `${target.principal.limitKey}\n${target.path}`;
  let entry = bridges.entries.get(key);
  if (!entry) bridges.entries.set(key, (entry = newEntry(legacy)));
  entry.lastUsed = Date.now();
  bridges.sweeper ??= setInterval(sweep, Math.min(IDLE_MS, 60_000)).unref();
  const extra = { bridge: { target, state: entry } };
  const options = { parsedBody, authInfo: { token: "", clientId: target.principal.oauthClientId ?? target.principal.tokenId ?? "", scopes: [], extra } };
  if ((parsedBody as { method?: unknown } | undefined)?.method !== "subscriptions/listen") return entry.handler.fetch(request, options);
  // A listen stream is answered by the SDK itself, with no handler of ours: the upstreams whose
  // list_changed it carries are opened (and kept open, and the bridge with them) here, for as long as it lasts.
  const scope = new BridgeScope(target, entry);
  const pinned = target.members.map((member) => scope.watch(member));
  for (const pooled of pinned) pooled.pins++;
  entry.listening++;
  // Acknowledged only once the upstreams are connected (and listening themselves); one that fails is left out.
  await Promise.allSettled(pinned.map((pooled) => pooled.ready));
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    for (const pooled of pinned) pooled.pins--;
    entry.listening--;
    entry.lastUsed = Date.now();
  };
  try {
    return whenEnded(await entry.handler.fetch(request, options), release);
  } catch (err) {
    release();
    throw err;
  }
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

function sweep() {
  const now = Date.now();
  for (const [key, entry] of bridges.entries) {
    if (entry.listening > 0 || now - entry.lastUsed <= IDLE_MS) continue;
    bridges.entries.delete(key);
    void entry.handler.close().catch(() => undefined);
  }
  if (!bridges.entries.size && bridges.sweeper) {
    clearInterval(bridges.sweeper);
    bridges.sweeper = null;
  }
}

function newEntry(legacy: "stateless" | "reject"): BridgeEntry {
  const entry: BridgeEntry = {
    handler: createMcpHandler(build, { legacy, onerror: () => undefined }),
    lastUsed: Date.now(),
    listening: 0,
    resourceOwners: new Map(),
    watched: new WeakSet(),
    listChanged: (kind: ListChangedKind) => {
      if (kind === "tools") entry.handler.notify.toolsChanged();
      else if (kind === "prompts") entry.handler.notify.promptsChanged();
      else entry.handler.notify.resourcesChanged();
    },
  };
  return entry;
}

/** The per-request SDK server: every list and call is answered from the upstream connections. */
async function build(ctx: McpRequestContext): Promise<Server> {
  const { target, state } = (ctx.authInfo?.extra as { bridge: { target: BridgeTarget; state: BridgeState } }).bridge;
  const scope = new BridgeScope(target, state);
  const single = scope.single;
  const info = single ? await scope.connect(single).then((c) => c.info, () => null) : null;
  const serverInfo = target.serverInfo ?? { ...(info?.serverInfo ?? { name: single?.server.name ?? "switchboard", version: "0" }) };
  const completions = single !== null && Boolean(info?.capabilities?.completions);
  const server = new Server(serverInfo as { name: string; version: string }, {
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true }, ...(completions ? { completions: {} } : {}) },
    ...(info?.instructions ? { instructions: info.instructions } : {}),
  });
  const client = (c: ServerContext) => clientOf(c, server);

  server.setRequestHandler("tools/list", async () => ({ tools: (await scope.named("tools")).map((t) => t.item) as never }));
  server.setRequestHandler("tools/call", async (request, c) => {
    const name = String(request.params.name);
    const found = (await scope.named("tools")).find((t) => t.name === name);
    refuseCall(target.principal, found, name);
    const params = { name: found.original, ...(request.params.arguments ? { arguments: request.params.arguments } : {}) };
    return (await scope.recorded(c, found.member, "tools/call", found.original, params, client(c))) as never;
  });
  server.setRequestHandler("prompts/list", async () => ({ prompts: (await scope.named("prompts")).map((p) => p.item) as never }));
  server.setRequestHandler("prompts/get", async (request, c) => {
    const name = String(request.params.name);
    const found = (await scope.named("prompts")).find((p) => p.name === name);
    if (!found) throw new ProtocolError(RPC.invalidParams, `Prompt ${name} is not offered through this gateway`);
    const params = { name: found.original, ...(request.params.arguments ? { arguments: request.params.arguments } : {}) };
    return (await scope.recorded(c, found.member, "prompts/get", found.original, params, client(c))) as never;
  });
  server.setRequestHandler("resources/list", async () => ({ resources: (await scope.resources()) as never }));
  server.setRequestHandler("resources/templates/list", async () => ({ resourceTemplates: (await scope.lists("resource-templates")).flat() as never }));
  server.setRequestHandler("resources/read", async (request, c) => {
    const uri = String(request.params.uri);
    const member = await scope.resourceOwner(uri);
    return (await scope.recorded(c, member, "resources/read", uri, { uri }, client(c))) as never;
  });
  if (completions && single) {
    server.setRequestHandler("completion/complete", async (request) => {
      const connection = await scope.connect(single);
      const { values, total, hasMore } = await connection.complete(request.params as never);
      return { completion: { values, ...(total === undefined ? {} : { total }), ...(hasMore === undefined ? {} : { hasMore }) } };
    });
  }
  return server;
}

/** The host's name and version: from the request's `_meta` (modern era), else from its initialize. */
function clientOf(ctx: ServerContext, server: Server): string | null {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const info = (envelope?.["io.modelcontextprotocol/clientInfo"] as { name?: unknown; version?: unknown } | undefined) ?? server.getClientVersion();
  const text = [info?.name, info?.version].filter((v) => typeof v === "string" && v).join(" ");
  return text ? text.slice(0, 300) : null;
}
