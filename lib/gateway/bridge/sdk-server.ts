import "server-only";
import { ProtocolError, Server, type ServerContext } from "@modelcontextprotocol/server";
import { hostCapabilities, inputWaitMs, resumeInputCall, stateCodec } from "./input";
import { refuseRole } from "../gate";
import { RPC } from "../policy";
import { BridgeScope, refuse, type BridgeState, type BridgeTarget, type SharedCapabilities } from "./scope";
import { unsubscribeUpstream } from "./upstreams";

/**
 * The SDK server facing a bridged host: every list and call is answered from the upstream
 * connections. `current` is read on each request (a session's principal, exposure and servers
 * are those of its latest request).
 */
export async function buildBridgeServer(current: () => BridgeCurrent): Promise<Server> {
  const { target } = current();
  const scope = (c?: ServerContext) => new BridgeScope(current().target, current().state, c ? hostCapabilities(c, server) : null);
  const single = scope().single;
  const info = single ? await scope().connect(single).then((c) => c.info, () => null) : null;
  const serverInfo = target.serverInfo ?? { ...(info?.serverInfo ?? { name: single?.server.name ?? "switchboard", version: "0" }) };
  const completions = single !== null && Boolean(info?.capabilities?.completions);
  const { shared, state } = current();
  const subscribe = shared?.subscribe ?? Boolean(single && (info?.capabilities as { resources?: { subscribe?: boolean } } | null)?.resources?.subscribe);
  // Log lines have no place on a modern host's requests (logging is deprecated there): a legacy session's only.
  const logging = Boolean(shared?.logging && state.session);
  const binding = () => `${current().target.principal.limitKey}\0${current().target.path}`;
  const codec = stateCodec(binding, Math.max(0, ...target.members.map((m) => inputWaitMs(m.server))));
  const server: Server = new Server(serverInfo as { name: string; version: string }, {
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true, ...(subscribe ? { subscribe: true } : {}) }, ...(logging ? { logging: {} } : {}), prompts: { listChanged: true }, ...(completions ? { completions: {} } : {}) },
    ...(info?.instructions ? { instructions: info.instructions } : {}),
    requestState: { verify: codec.verify },
  });
  const client = (c: ServerContext) => clientOf(c, server);
  const mint = (c: ServerContext) => (id: string) => codec.mint({ call: id }, c);
  // A retry of a call that asked its host for input (lib/gateway/bridge/input.ts): the state names it.
  const resumed = (c: ServerContext) => (c.mcpReq.requestState() === undefined ? null : resumeInputCall(c, current().target.principal.limitKey, hostCapabilities(c, server), mint(c)));

  server.setRequestHandler("tools/list", async (_request, c) => ({ tools: (await scope(c).named("tools")).map((t) => t.item) as never }));
  server.setRequestHandler("tools/call", async (request, c) => {
    // A viewer resumes no call either.
    refuse(refuseRole(current().target.principal, "tools/call"));
    const retry = resumed(c);
    if (retry) return (await retry) as never;
    const found = await scope(c).admitted("tools/call", String(request.params.name), request.params.arguments, client(c));
    const params = { name: found.original, ...(request.params.arguments ? { arguments: request.params.arguments } : {}) };
    return (await scope(c).recorded(c, { ...found.member, hold: found.hold }, "tools/call", found.original, params, client(c), mint(c))) as never;
  });
  server.setRequestHandler("prompts/list", async (_request, c) => ({ prompts: (await scope(c).named("prompts")).map((p) => p.item) as never }));
  server.setRequestHandler("prompts/get", async (request, c) => {
    const retry = resumed(c);
    if (retry) return (await retry) as never;
    const found = await scope(c).admitted("prompts/get", String(request.params.name), request.params.arguments, client(c));
    const params = { name: found.original, ...(request.params.arguments ? { arguments: request.params.arguments } : {}) };
    return (await scope(c).recorded(c, { ...found.member, hold: found.hold }, "prompts/get", found.original, params, client(c), mint(c))) as never;
  });
  server.setRequestHandler("resources/list", async (_request, c) => ({ resources: (await scope(c).resources()) as never }));
  server.setRequestHandler("resources/templates/list", async (_request, c) => ({ resourceTemplates: (await scope(c).lists("resource-templates")).flat() as never }));
  server.setRequestHandler("resources/read", async (request, c) => {
    const retry = resumed(c);
    if (retry) return (await retry) as never;
    const uri = String(request.params.uri);
    const member = await scope(c).admittedResource(uri, client(c));
    return (await scope(c).recorded(c, member, "resources/read", uri, { uri }, client(c), mint(c))) as never;
  });
  const session = state.session;
  if (session && logging) {
    server.setRequestHandler("logging/setLevel", async (request, c) => {
      session.logLevel = request.params.level;
      await scope(c).setLogLevel(request.params.level);
      return {};
    });
  }
  const held = session?.subscriptions;
  if (subscribe && held) {
    // A legacy host's session (the modern era subscribes on its listen stream, lib/gateway/bridge/bridge.ts).
    server.setRequestHandler("resources/subscribe", async (request, c) => {
      const uri = String(request.params.uri);
      if (held.has(uri)) return {};
      const pooled = await scope(c).subscribe(uri);
      if (!pooled) throw new ProtocolError(RPC.invalidParams, `No server offered at this endpoint takes a subscription to ${uri}`);
      if (held.has(uri)) void unsubscribeUpstream(pooled, uri);
      else held.set(uri, pooled);
      return {};
    });
    server.setRequestHandler("resources/unsubscribe", async (request) => {
      const uri = String(request.params.uri);
      const pooled = held.get(uri);
      held.delete(uri);
      if (pooled) await unsubscribeUpstream(pooled, uri);
      return {};
    });
  }
  if (completions && single) {
    server.setRequestHandler("completion/complete", async (request) => {
      const connection = await scope().connect(single);
      const { values, total, hasMore } = await connection.complete(request.params as never);
      return { completion: { values, ...(total === undefined ? {} : { total }), ...(hasMore === undefined ? {} : { hasMore }) } };
    });
  }
  return server;
}

/** What a bridged request is served with: its principal, exposure and servers, and what its bridge keeps. */
export interface BridgeCurrent {
  target: BridgeTarget;
  state: BridgeState;
  /** What the aggregated endpoint declares (its servers were asked); absent: as the single server does. */
  shared?: SharedCapabilities;
}

/** The host's name and version: from the request's `_meta` (modern era), else from its initialize. */
function clientOf(ctx: ServerContext, server: Server): string | null {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const info = (envelope?.["io.modelcontextprotocol/clientInfo"] as { name?: unknown; version?: unknown } | undefined) ?? server.getClientVersion();
  const text = [info?.name, info?.version].filter((v) => typeof v === "string" && v).join(" ");
  return text ? text.slice(0, 300) : null;
}
