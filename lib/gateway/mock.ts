import "server-only";
import { createMcpHandler, type McpRequestContext, type Server } from "@modelcontextprotocol/server";
import { Reply, type ApiRequest } from "@/lib/api/reply";
import { piece } from "@/lib/core/runtime";
import { timingOf } from "@/lib/core/timing";
import { beginHostCall } from "@/lib/domains/calls/server";
import { buildMockServer, findMockRoute, type MockOutcome, type MockRequest } from "@/lib/domains/mocks/server";
import { getServerActingAs } from "@/lib/domains/servers/server";
import { authenticateGateway, resourceUrl, type GatewayPrincipal } from "./auth";
import { refuseRole } from "./gate";
import { answering, fetchRequestOf, jsonError, readBody, requireBearer, rpcError, timed } from "./http";
import { isLegacySse, serveLegacySse } from "./legacy-sse";

type Found = NonNullable<Awaited<ReturnType<typeof findMockRoute>>>;

interface MockCurrent {
  found: Found;
  principal: GatewayPrincipal;
}

/** /mcp/<slug>/mock/<name> as the console's pipeline hands it (lib/api/pipeline.ts). */
export async function serveMockRequest(request: ApiRequest, slug: string, name: string): Promise<Reply> {
  const timing = timingOf(request);
  return timed(Reply.from(await handleMockRequest(fetchRequestOf(request), slug, name)), timing);
}

/**
 * A mock server (lib/domains/mocks): the gateway's auth (an API token with the gateway scope, or
 * an OAuth token issued for the workspace's aggregated endpoint), both eras statelessly (modern
 * per request; a legacy host's initialize and later requests each stand alone) and the legacy
 * HTTP+SSE transport. Nothing is sent to any server, so the workspace's policy rules do not apply;
 * each call is recorded in history (origin `mock`) against the mock's server.
 */
export async function handleMockRequest(request: Request, slug: string, name: string): Promise<Response> {
  // OAuth tokens for the workspace's aggregated endpoint cover its mocks (they are no protected resource of their own).
  const resource = resourceUrl(request, slug);
  return answering(resource, async () => {
    requireBearer(request);
    const found = await findMockRoute(slug, name);
    if (!found) return jsonError(404, "not_found", `No mock named "${name.slice(0, 200)}" is served at this workspace's gateway`);
    const principal = await authenticateGateway(request, { workspaceId: found.workspaceId }, resource);
    if (isLegacySse(request)) return await serveLegacySse(request, principal, (inner) => handleMockRequest(inner, slug, name));
    const body = request.method === "POST" ? await readBody(request) : null;
    if (body && body.parsed === undefined) return rpcError(400, null, -32700, "Parse error: the body is not JSON");
    const current: MockCurrent = { found, principal };
    const authInfo = { token: "", clientId: principal.oauthClientId ?? principal.tokenId ?? "", scopes: [], extra: { mock: current } };
    return handler().fetch(request, { authInfo, ...(body ? { parsedBody: body.parsed } : {}) });
  });
}

const handler = () => piece("gatewayMockHandler", () => createMcpHandler(build, { onerror: () => undefined }));

function build(ctx: McpRequestContext): Server {
  const { found, principal } = (ctx.authInfo?.extra as { mock: MockCurrent }).mock;
  return buildMockServer(found.file, {
    refuse: (call) => refuseRole(principal, call.method),
    begin: (call, client) => recordMockCall(found, principal, call, client),
  });
}

/** Records the call before it is answered (pending), completed with the mock's answer: origin `mock`, against the mock's server. */
async function recordMockCall(found: Found, principal: GatewayPrincipal, call: MockRequest, client: string | null): Promise<(outcome: MockOutcome) => void> {
  const server = await getServerActingAs({ workspaceId: found.workspaceId, userId: principal.userId }, found.serverId);
  const params = call.method === "resources/read" ? { uri: call.name } : { name: call.name, ...(call.arguments ? { arguments: call.arguments } : {}) };
  const handle = await beginHostCall({ server, userId: principal.userId, userName: principal.userName, method: call.method, name: call.name, params, origin: "mock", client, credential: null });
  return (outcome) => {
    const ended = "result" in outcome ? { result: outcome.result } : { status: "error" as const, error: { kind: "protocol" as const, ...outcome.error } };
    void handle.finish(ended).catch(() => undefined);
  };
}
