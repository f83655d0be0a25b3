import "server-only";
import { ProtocolError, Server, type ServerContext } from "@modelcontextprotocol/server";
import { BridgeScope, refuseCall, type BridgeState, type BridgeTarget } from "./bridge-scope";
import { RPC } from "./policy";

/**
 * The SDK server facing a bridged host: every list and call is answered from the upstream
 * connections. `current` is read on each request (a session's principal, exposure and servers
 * are those of its latest request).
 */
export async function buildBridgeServer(current: () => { target: BridgeTarget; state: BridgeState }): Promise<Server> {
  const { target } = current();
  const scope = () => new BridgeScope(current().target, current().state);
  const single = scope().single;
  const info = single ? await scope().connect(single).then((c) => c.info, () => null) : null;
  const serverInfo = target.serverInfo ?? { ...(info?.serverInfo ?? { name: single?.server.name ?? "switchboard", version: "0" }) };
  const completions = single !== null && Boolean(info?.capabilities?.completions);
  const server = new Server(serverInfo as { name: string; version: string }, {
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true }, ...(completions ? { completions: {} } : {}) },
    ...(info?.instructions ? { instructions: info.instructions } : {}),
  });
  const client = (c: ServerContext) => clientOf(c, server);

  server.setRequestHandler("tools/list", async () => ({ tools: (await scope().named("tools")).map((t) => t.item) as never }));
  server.setRequestHandler("tools/call", async (request, c) => {
    const name = String(request.params.name);
    const found = (await scope().named("tools")).find((t) => t.name === name);
    refuseCall(current().target.principal, found, name);
    const params = { name: found.original, ...(request.params.arguments ? { arguments: request.params.arguments } : {}) };
    return (await scope().recorded(c, found.member, "tools/call", found.original, params, client(c))) as never;
  });
  server.setRequestHandler("prompts/list", async () => ({ prompts: (await scope().named("prompts")).map((p) => p.item) as never }));
  server.setRequestHandler("prompts/get", async (request, c) => {
    const name = String(request.params.name);
    const found = (await scope().named("prompts")).find((p) => p.name === name);
    if (!found) throw new ProtocolError(RPC.invalidParams, `Prompt ${name} is not offered through this gateway`);
    const params = { name: found.original, ...(request.params.arguments ? { arguments: request.params.arguments } : {}) };
    return (await scope().recorded(c, found.member, "prompts/get", found.original, params, client(c))) as never;
  });
  server.setRequestHandler("resources/list", async () => ({ resources: (await scope().resources()) as never }));
  server.setRequestHandler("resources/templates/list", async () => ({ resourceTemplates: (await scope().lists("resource-templates")).flat() as never }));
  server.setRequestHandler("resources/read", async (request, c) => {
    const uri = String(request.params.uri);
    const member = await scope().resourceOwner(uri);
    return (await scope().recorded(c, member, "resources/read", uri, { uri }, client(c))) as never;
  });
  if (completions && single) {
    server.setRequestHandler("completion/complete", async (request) => {
      const connection = await scope().connect(single);
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
