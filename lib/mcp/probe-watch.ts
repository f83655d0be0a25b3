import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { TransportDecorator } from "./transport-decorator";

/**
 * Watches the era probe on its way: when `server/discover` left and whether anything answered it.
 * On stdio the SDK reads a probe that times out as "legacy" and carries on in place, so only this
 * tells a process that was still starting from a server that answered.
 */
export class ProbeWatch extends TransportDecorator {
  private probe: { id: string | number; sentAt: number } | null = null;
  private answered = false;

  /** How long the probe had waited, unanswered, when initialize followed it; null if it was answered or never sent. */
  unansweredMs: number | null = null;

  protected override outbound(message: JSONRPCMessage): JSONRPCMessage {
    const m = message as { id?: string | number; method?: string };
    if (m.method === "server/discover" && m.id !== undefined) this.probe = { id: m.id, sentAt: Date.now() };
    else if (m.method === "initialize" && this.probe && !this.answered) this.unansweredMs = Date.now() - this.probe.sentAt;
    return message;
  }

  protected override inbound(message: JSONRPCMessage): void {
    const m = message as { id?: string | number; method?: string };
    if (this.probe && m.method === undefined && m.id === this.probe.id && this.unansweredMs === null) this.answered = true;
  }
}
