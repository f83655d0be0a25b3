import "server-only";
import { createRequestStateCodec, inputRequired, ProtocolError, type InputRequests, type Server, type ServerContext } from "@modelcontextprotocol/server";
import { derivedSecret } from "@/lib/core/crypto";
import { McpError, type CallMethod, type Progress, type ServerRequest, type ServerRequestOutcome } from "@/lib/mcp/server";
import { piece } from "@/lib/core/runtime";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import { HostTimeout, toProtocol } from "../outcome";
import { RPC } from "../policy";
import type { GatewayCall } from "../recorder";
import { releaseUpstream, type PooledUpstream, type ServerRequestHandler } from "./upstreams";
import { config } from "@/lib/core/config";

type Item = Record<string, unknown>;

/** What a host declared it can answer (its request's `_meta` client capabilities, or its initialize). */
export interface HostCapabilities {
  elicitation?: { form?: object; url?: object };
  sampling?: object;
  roots?: object;
}

/** The host's capabilities if it declared any of elicitation, sampling or roots; else null (calls take the shared connection). */
export function hostCapabilities(ctx: ServerContext, server: Server): HostCapabilities | null {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const caps = (envelope?.["io.modelcontextprotocol/clientCapabilities"] ?? server.getClientCapabilities()) as HostCapabilities | undefined;
  return caps && (caps.elicitation || caps.sampling || caps.roots) ? caps : null;
}

/**
 * How long a call waits for its host to come back with the answers (`SWITCHBOARD_GATEWAY_INPUT_MS`,
 * default the server's request timeout); past it the server's request is refused and the call ends.
 */
export function inputWaitMs(server: ServerSecretRow): number {
  return config().gatewayInputMs ?? server.timeoutMs;
}

/**
 * Seals a waiting call's id into `requestState` (HMAC with a key derived from the console's secret),
 * bound to the principal, endpoint and method: another token, endpoint or method cannot resume it.
 */
export function stateCodec(binding: () => string, ttlMs: number) {
  return createRequestStateCodec<{ call: string }>({ key: derivedSecret("gateway-request-state"), ttlSeconds: Math.ceil(ttlMs / 1000) + 30, bind: (ctx) => `${binding()}\0${ctx.mcpReq.method}` });
}

interface Asked {
  key: string;
  request: ServerRequest;
  answer: (outcome: ServerRequestOutcome) => void;
}

type Settled = { result: Item } | { error: unknown };

type InputCalls = Map<string, InputCall>;
const waiting = () => piece("gatewayInputCalls", (): InputCalls => new Map());

/**
 * A bridged call whose host can answer the server's requests: it has a capable upstream connection
 * of its own (lib/gateway/bridge/upstreams.ts), so every request that connection gets is this call's. Each
 * one is handed to the host as an `input_required` result; the host's retry (with `inputResponses`
 * and the sealed `requestState`) answers it and waits for the next request or the final result.
 */
class InputCall {
  readonly id = crypto.randomUUID();
  readonly controller = new AbortController();
  /** Server requests not yet given to the host. */
  private queue: Asked[] = [];
  /** Given to the host, not yet answered. */
  private asked = new Map<string, Asked>();
  private settled: Settled | null = null;
  private wake: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Stops watching the HTTP request that carried the last `input_required`. */
  private unwatch: (() => void) | null = null;
  private count = 0;
  pooled: PooledUpstream | null = null;
  /** Progress goes to whichever host request is waiting now. */
  progress: ((progress: Progress) => void) | null = null;

  constructor(
    readonly principalKey: string,
    readonly method: CallMethod,
    readonly name: string,
    readonly server: ServerSecretRow,
    readonly call: GatewayCall,
    public caps: HostCapabilities,
  ) {}

  /** The upstream connection's request handler while this call holds it. */
  readonly serverRequest = (request: ServerRequest, signal: AbortSignal): Promise<ServerRequestOutcome> =>
    new Promise((resolve) => {
      if (this.settled) return resolve(refused(request, "The call it belongs to has ended"));
      const asked: Asked = { key: `${request.method.split("/")[0]}-${++this.count}`, request, answer: resolve };
      signal.addEventListener("abort", () => {
        this.queue = this.queue.filter((a) => a !== asked);
        this.asked.delete(asked.key);
      });
      this.queue.push(asked);
      this.wake?.();
    });

  settle(outcome: Settled): void {
    if (this.settled) return;
    this.settled = outcome;
    if ("result" in outcome) this.call.answered(outcome.result);
    else this.call.failed(outcome.error);
    for (const asked of [...this.queue, ...this.asked.values()]) asked.answer(refused(asked.request, "The call it belongs to has ended"));
    this.queue = [];
    this.asked.clear();
    if (this.pooled) releaseUpstream(this.pooled);
    this.wake?.();
  }

  /**
   * One host request of the exchange (the first, or a retry carrying answers): answers what was
   * asked, then waits for the final result or the server's next requests.
   */
  async round(ctx: ServerContext, mint: (id: string) => Promise<string>): Promise<Item> {
    this.unpark();
    const responses = ctx.mcpReq.inputResponses ?? {};
    for (const [key, asked] of this.asked) {
      if (!(key in responses)) continue;
      asked.answer({ result: responses[key] as Item });
      this.asked.delete(key);
    }
    // Asked but not answered: asked again.
    this.queue.unshift(...this.asked.values());
    this.asked.clear();
    const progressToken = (ctx.mcpReq._meta as { progressToken?: string | number } | undefined)?.progressToken;
    this.progress = progressToken === undefined ? null : (p) => void ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, ...p } }).catch(() => undefined);
    const cancel = () => this.controller.abort(new Error("The host cancelled the request"));
    ctx.mcpReq.signal.addEventListener("abort", cancel);
    try {
      for (;;) {
        if (this.settled) {
          if ("result" in this.settled) return this.settled.result;
          throw toProtocol(this.server, this.settled.error);
        }
        if (this.queue.length) {
          // Requests the server sends together go to the host together.
          await new Promise((resolve) => setImmediate(resolve));
          const ready = this.queue.splice(0).filter((asked) => {
            const refusal = this.refusal(asked.request);
            if (refusal) asked.answer(refusal);
            return !refusal;
          });
          if (!ready.length) continue;
          const inputRequests: InputRequests = {};
          for (const asked of ready) {
            this.asked.set(asked.key, asked);
            inputRequests[asked.key] = { method: asked.request.method, params: asked.request.params } as never;
          }
          const requestState = await mint(this.id);
          this.park(ctx);
          return inputRequired({ inputRequests, requestState }) as unknown as Item;
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = null;
      }
    } finally {
      ctx.mcpReq.signal.removeEventListener("abort", cancel);
      this.progress = null;
    }
  }

  /**
   * Waits for the host's retry, for a bounded time. A host that went away before the
   * `input_required` reached it (its HTTP request aborted unfinished) cancels the call.
   */
  private park(ctx: ServerContext): void {
    waiting().set(this.id, this);
    const waitMs = inputWaitMs(this.server);
    const end = (error: Error, message: string) => {
      this.unpark();
      for (const asked of this.asked.values()) asked.answer({ error: { code: -32603, message } });
      this.asked.clear();
      this.settle({ error });
      this.controller.abort(error);
    };
    this.timer = setTimeout(() => {
      const message = `The host did not answer the server's ${[...this.asked.values()].map((a) => a.request.method).join(", ")} within ${waitMs} ms`;
      end(new HostTimeout(message), message);
    }, waitMs);
    this.timer.unref?.();
    const dropped = ctx.http?.req?.signal;
    if (!dropped) return;
    const gone = () => {
      const message = "The host cancelled the request before the server's request reached it";
      end(new McpError("cancelled", message), message);
    };
    if (dropped.aborted) return gone();
    dropped.addEventListener("abort", gone);
    this.unwatch = () => dropped.removeEventListener("abort", gone);
  }

  private unpark(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.unwatch?.();
    this.unwatch = null;
    waiting().delete(this.id);
  }

  /** A request the host did not declare it can answer: refused upstream as the spec says (elicitation declined). */
  private refusal(request: ServerRequest): ServerRequestOutcome | null {
    const caps = this.caps;
    if (request.method === "elicitation/create") {
      const url = (request.params as { mode?: unknown }).mode === "url";
      if (url ? caps.elicitation?.url : caps.elicitation && (caps.elicitation.form || !caps.elicitation.url)) return null;
      return { result: { action: "decline" } };
    }
    if (request.method === "sampling/createMessage") return caps.sampling ? null : { error: { code: -1, message: "The host behind the gateway does not support sampling" } };
    return caps.roots ? null : { error: { code: -32601, message: "The host behind the gateway does not support roots" } };
  }
}

function refused(request: ServerRequest, message: string): ServerRequestOutcome {
  return request.method === "elicitation/create" ? { result: { action: "cancel" } } : { error: { code: -32603, message } };
}

interface InputCallStart {
  principalKey: string;
  method: CallMethod;
  name: string;
  params: Item;
  server: ServerSecretRow;
  call: GatewayCall;
  caps: HostCapabilities;
  /** A capable connection for this call alone (lib/gateway/bridge/upstreams.ts `checkoutUpstream`). */
  checkout: (holder: ServerRequestHandler) => PooledUpstream;
}

/** Sends a recorded call upstream on a capable connection of its own and serves its first round. */
export async function startInputCall(start: InputCallStart, ctx: ServerContext, mint: (id: string) => Promise<string>): Promise<Item> {
  const input = new InputCall(start.principalKey, start.method, start.name, start.server, start.call, start.caps);
  const pooled = start.checkout(input.serverRequest);
  input.pooled = pooled;
  try {
    const connection = await pooled.ready;
    // The call outlives this HTTP request: its own signal, and time for the host's rounds.
    const timeoutMs = start.server.timeoutMs + inputWaitMs(start.server);
    connection
      .request(start.method, start.params, {
        signal: input.controller.signal,
        timeoutMs,
        onProgress: (progress) => {
          start.call.progress(progress as never);
          input.progress?.(progress);
        },
      })
      .then((result) => input.settle({ result }), (error: unknown) => input.settle({ error }));
  } catch (error) {
    input.settle({ error });
  }
  return input.round(ctx, mint);
}

/** A host's retry: the waiting call its `requestState` names (already verified and bound to this principal). */
export function resumeInputCall(ctx: ServerContext, principalKey: string, caps: HostCapabilities | null, mint: (id: string) => Promise<string>): Promise<Item> {
  const id = ctx.mcpReq.requestState<{ call?: unknown }>()?.call;
  const input = typeof id === "string" ? waiting().get(id) : undefined;
  if (!input || input.principalKey !== principalKey || input.method !== ctx.mcpReq.method) {
    throw new ProtocolError(RPC.invalidParams, "No call is waiting for this requestState here: it finished, timed out, or is held by another instance of the console (start the call again)");
  }
  if (caps) input.caps = caps;
  return input.round(ctx, mint);
}
