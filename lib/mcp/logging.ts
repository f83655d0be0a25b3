import { LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY, type JSONRPCMessage, type LoggingLevel } from "@modelcontextprotocol/client";
import { TransportDecorator } from "./transport-decorator";
import type { Transport } from "@modelcontextprotocol/client";

/**
 * Asks a modern-era (2026-07-28) server for log lines at the chosen level: that era has no
 * `logging/setLevel` session state, the level rides in each request's `_meta`. The SDK builds
 * the envelope without a level, so this decorator adds it to every outgoing request that
 * carries the modern envelope (legacy requests have none and pass untouched).
 */
export class LogLevelStamp extends TransportDecorator {
  constructor(
    inner: Transport,
    private readonly level: () => LoggingLevel | null,
  ) {
    super(inner);
  }

  protected override outbound(message: JSONRPCMessage): JSONRPCMessage {
    const level = this.level();
    const m = message as { method?: string; id?: unknown; params?: { _meta?: Record<string, unknown> } };
    if (!level || typeof m.method !== "string" || m.id === undefined) return message;
    const meta = m.params?._meta;
    if (!meta || !(PROTOCOL_VERSION_META_KEY in meta)) return message;
    return { ...message, params: { ...m.params, _meta: { ...meta, [LOG_LEVEL_META_KEY]: level } } } as JSONRPCMessage;
  }
}
