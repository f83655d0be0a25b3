import "server-only";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { ProtocolError, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { Reply } from "@/lib/api/reply";
import type { Timing } from "@/lib/core/timing";
import { classifyFailure, McpError, toJsonRpcError } from "@/lib/mcp/server";
import type { PolicyDecision } from "@/lib/domains/policies";
import type { Waiting } from "../hold";
import { recordedMethod, type Admission, type RpcError } from "../policy";
import type { GatewayCall } from "../recorder";
import { DirectAnswer, type OneRequest } from "./direct";
import { isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse, setProtocolVersion, type Id } from "./messages";

type Request = OneRequest;

/** What a relay asks of the gateway around each message (lib/gateway/passthrough/endpoint.ts). */
export interface PassthroughHooks {
  /** A request from the host: null lets it through, else the error it is answered with (lib/gateway/gate.ts). */
  admit(request: Request, relay: PassthroughSession): Promise<Admission>;
  /** Starts the history row of a call (tools/call, resources/read, prompts/get; lib/gateway/recorder.ts); `hold`: the rule holding it. */
  record(request: Request, hold?: PolicyDecision): Promise<GatewayCall>;
  /** Records a call the workspace's rules refused (status `denied`). */
  refused(request: Request, decision: PolicyDecision): Promise<void>;
  /** Waits for a person's approval of a recorded call (lib/gateway/hold.ts): null to send it, else the error the host gets. */
  hold(request: Request, call: GatewayCall, decision: PolicyDecision, signal: AbortSignal, onWaiting: (waiting: Waiting) => void): Promise<RpcError | null>;
  /** Rewrites a result on its way to the host (what the exposure and the rules offer, lib/gateway/gate.ts). */
  shape(method: string, result: Record<string, unknown>): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** The host sent `initialize`: who it is. Awaited before it goes on, so the session is known everywhere first. */
  initialized(client: { name: string | null; version: string | null; protocolVersion: string | null }): Promise<void>;
  /** The host's `notifications/initialized` went up: the session is live (drift snapshots it). */
  live(): void;
  /** The relay ended (the host left, the server went away, an admin disconnected it). */
  ended(reason: string): void;
  /** `initialize` failed upstream: another transport to try once (legacy HTTP+SSE), or null. */
  fallback(err: unknown): Transport | null;
}

interface InFlight {
  method: string;
  call?: GatewayCall;
  progressToken?: Id;
  /** The HTTP request's stages (a direct answer's), and when the request went up. */
  timing?: Timing;
  sentAt?: number;
  /** A call held for approval: aborted when the host cancels it or the session ends. */
  waiting?: AbortController;
}

/**
 * One host session relayed to one upstream session, message by message: the host's requests,
 * notifications (progress, cancellation) and answers to the server's own requests (sampling,
 * elicitation, roots) go up unchanged; the server's answers, notifications and requests come
 * down on the stream of the request they belong to. The relay only looks at what it must:
 * initialize (who the host is), the recorded calls (history), tools/list (what is offered).
 */
export class PassthroughSession {
  readonly downstream: WebStandardStreamableHTTPServerTransport;
  private readonly inFlight = new Map<Id, InFlight>();
  private readonly progress = new Map<Id, Id>();
  private readonly own = new Map<string, (message: JSONRPCMessage) => void>();
  private readonly direct = new Map<Id, DirectAnswer>();
  private ownIds = 0;
  private closed = false;
  lastSeen = Date.now();

  constructor(
    readonly id: string,
    private upstream: Transport,
    private readonly hooks: PassthroughHooks,
  ) {
    this.downstream = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => id, onsessionclosed: () => void this.close("closed") });
    this.downstream.onmessage = (message) => void this.fromHost(message);
    this.downstream.onclose = () => void this.close("closed");
    this.attach(upstream);
  }

  async start(): Promise<void> {
    await this.upstream.start();
    await this.downstream.start();
  }

  /** Sends a request of the gateway's own upstream (e.g. tools/list to learn annotations); never seen by the host. */
  async request(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = `switchboard-gateway-${++this.ownIds}`;
    const answer = new Promise<JSONRPCMessage>((resolve) => this.own.set(id, resolve));
    await this.upstream.send({ jsonrpc: "2.0", id, method, params });
    const message = await answer;
    if (isJSONRPCErrorResponse(message)) throw Object.assign(new Error(message.error.message), { code: message.error.code });
    return (message as { result: Record<string, unknown> }).result;
  }

  /** A host's POST of one request, answered by the relay itself (lib/gateway/passthrough/direct.ts), not through `downstream`. */
  answer(request: Request, timing?: Timing): Promise<Reply> {
    this.lastSeen = Date.now();
    const direct = new DirectAnswer(this.id, timing);
    this.direct.set(request.id, direct);
    void this.hostRequest(request, timing);
    return direct.reply;
  }

  async close(reason: string): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [id, direct] of this.direct) direct.abandon(id, `The gateway session ended (${reason})`);
    this.direct.clear();
    for (const flight of this.inFlight.values()) {
      flight.waiting?.abort();
      flight.call?.failed(new Error(`The gateway session ended (${reason})`));
    }
    this.inFlight.clear();
    for (const resolve of this.own.values()) resolve({ jsonrpc: "2.0", id: 0, error: { code: -32000, message: "closed" } });
    this.hooks.ended(reason);
    await Promise.allSettled([this.downstream.close(), this.upstream.close()]);
  }

  private async switchUpstream(next: Transport): Promise<void> {
    const previous = this.upstream;
    previous.onclose = undefined;
    await previous.close().catch(() => undefined);
    this.upstream = next;
    this.attach(next);
    await next.start();
  }

  private attach(upstream: Transport) {
    upstream.onmessage = (message) => void this.fromServer(message);
    upstream.onclose = () => void this.close("upstream");
    upstream.onerror = () => undefined;
  }

  private async fromHost(message: JSONRPCMessage): Promise<void> {
    this.lastSeen = Date.now();
    if (isJSONRPCRequest(message)) return this.hostRequest(message as Request);
    if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: Id } | undefined)?.requestId;
      const flight = id === undefined ? undefined : this.inFlight.get(id);
      this.direct.get(id!)?.drop();
      this.direct.delete(id!);
      if (flight && id !== undefined) {
        flight.waiting?.abort();
        this.forget(id, flight);
        flight.call?.failed(new McpError("cancelled", String((message.params as { reason?: unknown }).reason ?? "Cancelled by the host")));
      }
    }
    await this.toServer(message);
    if (isJSONRPCNotification(message) && message.method === "notifications/initialized") this.hooks.live();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private async hostRequest(request: Request, timing?: Timing): Promise<void> {
    if (request.method === "initialize") {
      const params = request.params as { clientInfo?: { name?: string; version?: string }; protocolVersion?: string } | undefined;
      await this.hooks.initialized({ name: params?.clientInfo?.name ?? null, version: params?.clientInfo?.version ?? null, protocolVersion: params?.protocolVersion ?? null });
    }
    let refusal: RpcError | null;
    let hold: PolicyDecision | undefined;
    let call: GatewayCall | undefined;
    let at = performance.now();
    try {
      const admission = await this.hooks.admit(request, this);
      if (admission && "hold" in admission) ({ hold } = admission);
      refusal = admission && "code" in admission ? admission : null;
      if (timing) at = timing.since("validation", at);
      if (refusal?.policy && recordedMethod(request.method)) await this.hooks.refused(request, refusal.policy);
      if (!refusal && recordedMethod(request.method)) call = await this.hooks.record(request, hold);
      if (timing && call) at = timing.since("journal", at);
    } catch (err) {
      refusal = { code: -32603, message: err instanceof Error ? err.message : String(err) };
    }
    if (refusal) return this.toHost({ jsonrpc: "2.0", id: request.id, error: refusal });
    const progressToken = (request.params?._meta as { progressToken?: Id } | undefined)?.progressToken;
    const flight: InFlight = { method: request.method, sentAt: at };
    if (call) flight.call = call;
    if (timing) flight.timing = timing;
    if (progressToken !== undefined) flight.progressToken = progressToken;
    this.inFlight.set(request.id, flight);
    const direct = this.direct.get(request.id);
    if (direct) direct.sentAt = at;
    if (progressToken !== undefined) this.progress.set(progressToken, request.id);
    if (hold && call && !(await this.approved(request, flight, call, hold, progressToken))) return;
    try {
      await (call ? call.traced(() => this.send(request)) : this.send(request));
    } catch (err) {
      const flight = this.inFlight.get(request.id);
      if (flight) this.forget(request.id, flight);
      call?.failed(err);
      await this.toHost({ jsonrpc: "2.0", id: request.id, error: toJsonRpcError(classifyFailure(err)) });
      if (request.method === "initialize") this.closeSoon();
    }
  }

  /** A call an `approve` rule holds: false when it is not to be sent (refused, or the host gave up meanwhile). */
  private async approved(request: Request, flight: InFlight, call: GatewayCall, decision: PolicyDecision, progressToken: Id | undefined): Promise<boolean> {
    flight.waiting = new AbortController();
    const onWaiting = (waiting: Waiting) => {
      if (progressToken !== undefined) void this.toHost({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, ...waiting } }, request.id);
    };
    const refusal = await this.hooks.hold(request, call, decision, flight.waiting.signal, onWaiting);
    if (this.inFlight.get(request.id) !== flight) return false;
    if (!refusal) return true;
    this.forget(request.id, flight);
    await this.toHost({ jsonrpc: "2.0", id: request.id, error: refusal });
    return false;
  }

  // A session whose initialize failed is over; the host has its answer (closing at once could cut
  // the stream before it is read).
  private closeSoon() {
    setTimeout(() => void this.close("upstream"), 1_000).unref();
  }

  private async send(request: Request): Promise<void> {
    try {
      await this.upstream.send(request);
    } catch (err) {
      const next = request.method === "initialize" ? this.hooks.fallback(err) : null;
      if (!next) throw err;
      await this.switchUpstream(next);
      await this.upstream.send(request);
    }
  }

  private async fromServer(message: JSONRPCMessage): Promise<void> {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const id = (message as { id: Id }).id;
      const mine = typeof id === "string" ? this.own.get(id) : undefined;
      if (mine) {
        this.own.delete(id as string);
        return mine(message);
      }
      const flight = this.inFlight.get(id);
      if (!flight) return; // cancelled by the host: its stream is gone
      this.forget(id, flight);
      flight.timing?.since("upstream", flight.sentAt!);
      if (isJSONRPCResultResponse(message)) {
        // Only lists wait for the rules: any other answer passes in the order it came.
        const shaped = this.hooks.shape(flight.method, message.result as Record<string, unknown>);
        const result = shaped instanceof Promise ? await shaped : shaped;
        if (flight.method === "initialize") setProtocolVersion(this.upstream, result);
        // The host is not kept waiting for the completion write (it retries until the database takes it).
        await this.toHost({ ...message, result } as JSONRPCMessage);
        return flight.call?.answered(result, flight.timing);
      }
      await this.toHost(message);
      if (flight.method === "initialize") this.closeSoon();
      // Classified like the console's own calls: the relay's offline and too_large answers are not the server's errors.
      return flight.call?.failed(new ProtocolError(message.error.code, message.error.message, message.error.data), flight.timing);
    }
    if (isJSONRPCNotification(message) && message.method === "notifications/progress") {
      const token = (message.params as { progressToken?: Id } | undefined)?.progressToken;
      const related = token === undefined ? undefined : this.progress.get(token);
      if (related !== undefined) {
        const { progressToken: _token, ...progress } = message.params as Record<string, unknown>;
        this.inFlight.get(related)?.call?.progress(progress);
        return this.toHost(message, related);
      }
    }
    // A server request (sampling, elicitation, roots) belongs to the call in flight, if any:
    // it goes down that call's stream, which the host is reading for sure.
    return this.toHost(message, isJSONRPCRequest(message) ? this.latestCall() : undefined);
  }

  private latestCall(): Id | undefined {
    let latest: Id | undefined;
    for (const [id, flight] of this.inFlight) if (recordedMethod(flight.method)) latest = id;
    return latest;
  }

  private forget(id: Id, flight: InFlight) {
    this.inFlight.delete(id);
    if (flight.progressToken !== undefined) this.progress.delete(flight.progressToken);
  }

  private async toServer(message: JSONRPCMessage): Promise<void> {
    await this.upstream.send(message).catch(() => undefined);
  }

  private async toHost(message: JSONRPCMessage, relatedRequestId?: Id): Promise<void> {
    const final = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    const to = final ? (message as { id: Id }).id : relatedRequestId;
    const direct = to === undefined ? undefined : this.direct.get(to);
    if (direct) {
      if (direct.deliver(message, final)) this.direct.delete(to!);
      return;
    }
    const options = relatedRequestId !== undefined && this.inFlight.has(relatedRequestId) ? { relatedRequestId } : undefined;
    await this.downstream.send(message, options).catch(() => this.downstream.send(message).catch(() => undefined));
  }
}
