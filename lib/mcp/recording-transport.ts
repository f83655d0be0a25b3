import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { DEFAULT_REDACTION_KEYS, mentionsSecretValue, redact, secretValues, type SecretValues } from "@/lib/core/redaction";
import { TransportDecorator } from "./transport-decorator";
import type { Transport } from "@modelcontextprotocol/client";

/** Bodies longer than this are cut (and flagged `truncated`). */
export const TRAFFIC_BODY_CAP = 256 * 1024;
/** Requests waiting for their response; beyond this the oldest are forgotten (no duration then). */
const MAX_PENDING = 10_000;
const NEEDLES = DEFAULT_REDACTION_KEYS.map((k) => k.replace(/[-_]/g, ""));

/** One JSON-RPC message as the recording transport saw it. */
export interface TrafficRecord {
  /** "out": console → server; "in": server → console. */
  direction: "out" | "in";
  kind: "request" | "response" | "error" | "notification";
  /** The method; for responses, the method of the request they answer (when known). */
  method: string | null;
  /** The JSON-RPC id as JSON text (`"abc"` keeps its quotes, `7` does not). */
  rpcId: string | null;
  /** Bytes of the whole message as JSON (before scrubbing and cutting). */
  size: number;
  /** For responses: milliseconds since the request they answer went the other way. */
  durationMs: number | null;
  /** JSON, secrets scrubbed, cut at TRAFFIC_BODY_CAP. */
  body: string;
  truncated: boolean;
  at: Date;
}

interface RecordingOptions {
  /** Gets every record, synchronously; must be cheap (queue it) and must not throw. */
  sink: (record: TrafficRecord) => void;
  /** Values that must never appear in a body (e.g. the server's header values); replaced wherever found. */
  secrets?: string[];
  /** More such values, as known at the time of each message (OAuth tokens, which a refresh replaces). */
  moreSecrets?: () => SecretValues;
}

/**
 * Records every JSON-RPC message of a session in both directions: tags the direction, pairs
 * responses with their request by id (either way round, so server→client requests are paired
 * too) and measures the duration. Scrubs secret-looking fields and known secret values.
 */
export class RecordingTransport extends TransportDecorator {
  private readonly pending = { out: new Map<string, { method: string; at: number }>(), in: new Map<string, { method: string; at: number }>() };
  private readonly secrets: SecretValues;
  private merged: { from: SecretValues; secrets: SecretValues } | null = null;

  constructor(
    inner: Transport,
    private readonly options: RecordingOptions,
  ) {
    super(inner);
    this.secrets = secretValues(options.secrets ?? []);
  }

  protected override outbound(message: JSONRPCMessage): JSONRPCMessage {
    this.record("out", message);
    return message;
  }

  protected override inbound(message: JSONRPCMessage): void {
    this.record("in", message);
  }

  private record(direction: "out" | "in", message: JSONRPCMessage): void {
    try {
      const now = performance.now();
      const m = message as { id?: string | number; method?: string; error?: unknown };
      const rpcId = m.id === undefined || m.id === null ? null : JSON.stringify(m.id);
      let kind: TrafficRecord["kind"];
      let method = typeof m.method === "string" ? m.method : null;
      let durationMs: number | null = null;
      if (method !== null) {
        kind = rpcId === null ? "notification" : "request";
        if (rpcId !== null) remember(this.pending[direction], rpcId, { method, at: now });
      } else {
        kind = m.error !== undefined ? "error" : "response";
        // A response answers a request that went the other way.
        const asked = direction === "in" ? this.pending.out : this.pending.in;
        const request = rpcId === null ? undefined : asked.get(rpcId);
        if (request && rpcId !== null) {
          asked.delete(rpcId);
          method = request.method;
          durationMs = Math.round((now - request.at) * 100) / 100;
        }
      }
      const raw = JSON.stringify(message);
      let body = this.scrub(raw);
      const truncated = body.length > TRAFFIC_BODY_CAP;
      if (truncated) body = body.slice(0, TRAFFIC_BODY_CAP);
      this.options.sink({ direction, kind, method, rpcId, size: Buffer.byteLength(raw), durationMs, body, truncated, at: new Date() });
    } catch {
      // Recording must never disturb the session.
    }
  }

  private scrub(raw: string): string {
    const secrets = this.secretsNow();
    if (!mentionsSecret(raw) && !mentionsSecretValue(raw, secrets)) return raw;
    return JSON.stringify(redact(JSON.parse(raw), DEFAULT_REDACTION_KEYS, { secrets }).value);
  }

  private secretsNow(): SecretValues {
    const more = this.options.moreSecrets?.();
    if (!more?.values.length) return this.secrets;
    if (this.merged?.from !== more) this.merged = { from: more, secrets: { values: [...new Set([...this.secrets.values, ...more.values])].sort((a, b) => b.length - a.length) } };
    return this.merged.secrets;
  }
}

/** Whether a field named like a secret may be in the text: most messages never mention one and are kept as they are. */
function mentionsSecret(raw: string): boolean {
  const text = raw.toLowerCase().replace(/[-_]/g, "");
  return NEEDLES.some((needle) => text.includes(needle));
}

function remember(map: Map<string, { method: string; at: number }>, id: string, entry: { method: string; at: number }): void {
  map.set(id, entry);
  if (map.size > MAX_PENDING) map.delete(map.keys().next().value!);
}
