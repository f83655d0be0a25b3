import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { TransportDecorator } from "./transport-decorator";
import type { Progress } from "./types";

/** A `_meta` key the router reads on outgoing requests and strips before they leave. */
export const PROGRESS_ROUTE_KEY = "io.switchboard/progress-route";

type Listener = (progress: Progress) => void;
type Id = string | number;

/**
 * Hands `notifications/progress` to the caller as they arrive, before the SDK sees them. The SDK
 * runs notification handlers in a later microtask but settles a response at once, dropping its
 * progress handler, so a last progress notification read in the same chunk as its response would
 * be lost. A request opts in by carrying `_meta[PROGRESS_ROUTE_KEY]` (see `route`).
 */
export class ProgressRouter extends TransportDecorator {
  private readonly byKey = new Map<string, Listener>();
  private readonly byToken = new Map<Id, Listener>();
  private readonly tokenOfRequest = new Map<Id, Id>();

  /** Sends this request's progress to `listener`; returns the function that stops it. */
  route(key: string, listener: Listener): () => void {
    this.byKey.set(key, listener);
    return () => this.byKey.delete(key);
  }

  protected override outbound(message: JSONRPCMessage): JSONRPCMessage {
    if (!("method" in message) || !("id" in message)) return message;
    const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    const key = meta?.[PROGRESS_ROUTE_KEY];
    if (typeof key !== "string") return message;
    const { [PROGRESS_ROUTE_KEY]: _, ...rest } = meta!;
    const listener = this.byKey.get(key);
    const token = rest.progressToken as Id | undefined;
    if (listener && token !== undefined) {
      this.byToken.set(token, listener);
      this.tokenOfRequest.set(message.id, token);
    }
    return { ...message, params: { ...message.params, _meta: rest } } as JSONRPCMessage;
  }

  protected override inbound(message: JSONRPCMessage): void {
    if ("method" in message && message.method === "notifications/progress" && !("id" in message)) {
      const { progressToken, progress, total, message: text } = (message.params ?? {}) as Record<string, unknown>;
      const listener = this.byToken.get(progressToken as Id);
      if (listener && typeof progress === "number") {
        listener({ progress, ...(typeof total === "number" ? { total } : {}), ...(typeof text === "string" ? { message: text } : {}) });
      }
    } else if ("id" in message && !("method" in message)) {
      const token = this.tokenOfRequest.get(message.id as Id);
      if (token !== undefined) {
        this.tokenOfRequest.delete(message.id as Id);
        this.byToken.delete(token);
      }
    }
  }
}
