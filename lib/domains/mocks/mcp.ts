// The mock as an SDK server: isomorphic (the console's endpoint and `switchboard mock serve` build it alike).
import { ProtocolError, Server, type ServerContext } from "@modelcontextprotocol/server";
import { findAnswer, latencyOf, type MockRequest } from "./engine";
import { MAX_MOCK_LATENCY_MS, type MockFile, type MockRpcError } from "./index";

/** How a call ended, as the mock answered it. */
export type MockOutcome = { result: Record<string, unknown> } | { error: MockRpcError };

export interface MockHooks {
  /** Before a call is answered (the console records it here); the returned function gets its outcome. */
  begin?(call: MockRequest, client: string | null): Promise<(outcome: MockOutcome) => void>;
  /** A refusal of the caller (a viewer calls no tool), or null. */
  refuse?(call: MockRequest): MockRpcError | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server answering `initialize`/`server/discover`, the lists and each recorded call from the file. */
export function buildMockServer(file: MockFile, hooks: MockHooks = {}): Server {
  const server: Server = new Server(
    { ...file.serverInfo, name: String(file.serverInfo.name), version: String(file.serverInfo.version) },
    { capabilities: { tools: {}, prompts: {}, resources: {} }, ...(file.instructions ? { instructions: file.instructions } : {}) },
  );
  const answer = async (request: MockRequest, c: ServerContext): Promise<Record<string, unknown>> => {
    const refused = hooks.refuse?.(request);
    if (refused) throw new ProtocolError(refused.code, refused.message, refused.data);
    const end = (await hooks.begin?.(request, clientOf(c, server))) ?? (() => undefined);
    const found = findAnswer(file, file, request);
    if ("error" in found) {
      end({ error: found.error });
      throw new ProtocolError(found.error.code, found.error.message, found.error.data);
    }
    const wait = latencyOf(found.recording, file, MAX_MOCK_LATENCY_MS);
    if (wait) await sleep(wait);
    const { error, result } = found.recording;
    if (error) {
      end({ error });
      throw new ProtocolError(error.code, error.message, error.data);
    }
    end({ result: result ?? {} });
    return result ?? {};
  };
  server.setRequestHandler("tools/list", () => ({ tools: file.tools as never }));
  server.setRequestHandler("prompts/list", () => ({ prompts: file.prompts as never }));
  server.setRequestHandler("resources/list", () => ({ resources: file.resources as never }));
  server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: file.resourceTemplates as never }));
  server.setRequestHandler("tools/call", async (request, c) => (await answer({ method: "tools/call", name: String(request.params.name), arguments: request.params.arguments ?? null }, c)) as never);
  server.setRequestHandler("prompts/get", async (request, c) => (await answer({ method: "prompts/get", name: String(request.params.name), arguments: request.params.arguments ?? null }, c)) as never);
  server.setRequestHandler("resources/read", async (request, c) => (await answer({ method: "resources/read", name: String(request.params.uri), arguments: null }, c)) as never);
  return server;
}

/** The host's name and version: from the request's `_meta` (modern era), else from its initialize. */
function clientOf(ctx: ServerContext, server: Server): string | null {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const info = (envelope?.["io.modelcontextprotocol/clientInfo"] as { name?: unknown; version?: unknown } | undefined) ?? server.getClientVersion();
  const text = [info?.name, info?.version].filter((v) => typeof v === "string" && v).join(" ");
  return text ? text.slice(0, 300) : null;
}
