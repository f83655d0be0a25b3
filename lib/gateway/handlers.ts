import "server-only";
import { toResponse, type ApiRequest, type Reply } from "@/lib/api/reply";
import { serveAggregateRequest } from "./bridge/aggregate";
import { serveMockRequest } from "./mock";
import { serveGatewayRequest } from "./passthrough/endpoint";

type Params = Record<string, string>;

/**
 * A gateway route's handler as both pipelines call it: Next with a Fetch Request, the console's
 * own (lib/api/pipeline.ts) through `serve` with its light request, no Fetch Request built per call.
 */
function handler(serve: (request: ApiRequest, params: Params) => Promise<Reply>) {
  const next = async (request: Request, { params }: { params: Promise<Params> }) => toResponse(await serve(request, await params));
  return Object.assign(next, { serve });
}

/** /mcp/<slug>/<server>: a workspace server as a Streamable HTTP MCP endpoint. */
export const gatewayHandler = handler((request, params) => serveGatewayRequest(request, params.slug!, params.server!));

/** /mcp/<slug>: the workspace's aggregated endpoint. */
export const aggregateHandler = handler((request, params) => serveAggregateRequest(request, params.slug!));

/** /mcp/<slug>/mock/<name>: a mock server made from history (lib/domains/mocks). */
export const mockHandler = handler((request, params) => serveMockRequest(request, params.slug!, params.name!));
