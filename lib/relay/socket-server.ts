import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

/** Placeholder until the agent relay lands: no upgrade is the relay's. */
export function attachRelay() {
  return {
    handles: (_req: IncomingMessage) => false,
    upgrade: (_req: IncomingMessage, socket: Duplex, _head: Buffer) => socket.destroy(),
    close: () => undefined,
  };
}
