import { ProtocolError, type Client, type ClientCapabilities } from "@modelcontextprotocol/client";
import { bindTaskRequests, TASK_REQUEST_CAPABILITIES } from "./task-requests";
import type { ServerRequest, ServerRequestOutcome } from "./types";

/** What a Session needs to answer server-initiated requests. */
export interface ServerRequestHooks {
  onServerRequest?: (request: ServerRequest, signal: AbortSignal) => Promise<ServerRequestOutcome>;
  onElicitationComplete?: (elicitationId: string) => void;
  /**
   * Taken when an elicitation or sampling request arrives (plain or task-augmented): a signal that
   * aborts once the calls it can belong to have ended, so that nobody is asked for a call that is over.
   */
  callScope?: () => AbortSignal;
}

/**
 * The client capabilities for server-initiated requests: declared only when someone answers them
 * (a person through lib/domains/interactions), so a server never asks what nobody can answer. Sampling
 * declares `tools`: a person can answer with tool calls, and tool-use sequences are checked.
 * `tasks`: sampling and elicitation may also come task-augmented (task-requests.ts); some servers
 * offer tools only to such clients.
 */
export function serverRequestCapabilities(hooks: ServerRequestHooks): ClientCapabilities {
  if (!hooks.onServerRequest) return {};
  return { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: { listChanged: true }, tasks: TASK_REQUEST_CAPABILITIES };
}

/**
 * Registers the `elicitation/create`, `sampling/createMessage` and `roots/list` handlers. In the
 * modern era the SDK fulfils `input_required` results through these same handlers. The SDK
 * validates elicitation and sampling shapes on the way in and out (not the answer of a
 * task-augmented one: lib/domains/interactions checks a person's answer). Returns what ends the open tasks;
 * call it when the session closes.
 */
export function registerServerRequestHandlers(client: Client, hooks: ServerRequestHooks): () => void {
  const answer = hooks.onServerRequest;
  let closeTasks: () => void = () => undefined;
  if (answer) {
    const run = async (request: ServerRequest, signal: AbortSignal) => {
      const outcome = await answer(request, signal);
      if ("error" in outcome) throw new ProtocolError(outcome.error.code, outcome.error.message);
      return outcome.result;
    };
    // The SDK does not say which request's stream a server request came on: it is bound to every call in flight.
    const bound = (signal: AbortSignal) => (hooks.callScope ? AbortSignal.any([signal, hooks.callScope()]) : signal);
    client.setRequestHandler("elicitation/create", async (request, ctx) =>
      (await run({ method: "elicitation/create", params: { ...request.params } }, bound(ctx.mcpReq.signal))) as never,
    );
    client.setRequestHandler("sampling/createMessage", async (request, ctx) =>
      (await run({ method: "sampling/createMessage", params: { ...request.params } }, bound(ctx.mcpReq.signal))) as never,
    );
    client.setRequestHandler("roots/list", async (request, ctx) =>
      (await run({ method: "roots/list", params: { ...(request.params ?? {}) } }, ctx.mcpReq.signal)) as never,
    );
    closeTasks = bindTaskRequests(client, run, hooks.callScope);
  }
  const complete = hooks.onElicitationComplete;
  if (complete) {
    client.setNotificationHandler("notifications/elicitation/complete", (n) => {
      try {
        complete(n.params.elicitationId);
      } catch {
        // A failing listener must not break the SDK's notification dispatch.
      }
    });
  }
  return closeTasks;
}
