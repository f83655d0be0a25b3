import "server-only";
import { config } from "@/lib/core/config";
import { SwitchboardError } from "@/lib/core/errors";
import { agentInstance, isAgentHere, isAgentServerHere } from "@/lib/relay/server";
import type { ServerSecretRow } from "@/lib/domains/servers/server";

// Whether the servers behind the aggregated endpoint can be reached: one that cannot is left out of
// the lists at once, and comes back (with list_changed to the hosts) when a recheck reaches it.

/** How long one server may take to connect and answer a list before the aggregated endpoint leaves it out of that request. */
export const REACH_MS = config().gatewayReachMs;
/** How often a server left out is tried again. */
export const RECHECK_MS = config().gatewayRecheckMs;

/** Why the server cannot be reached from this instance, known without trying (its agent is not connected here); else null. */
export function knownUnreachable(server: Pick<ServerSecretRow, "kind" | "agentId" | "name">): string | null {
  if (server.kind === "stdio") return "a stdio server: no agent lists it";
  if (server.kind !== "agent") return null;
  if (!server.agentId) return "it has no agent";
  if (agentInstance(server.agentId, server.name)) return "its agent is connected to another console instance";
  if (!isAgentHere(server.agentId)) return "agent offline";
  if (!isAgentServerHere(server.agentId, server.name)) return "its agent no longer lists it";
  return null;
}

/** `promise`, or a SwitchboardError("unavailable") once `ms` have passed (the work itself goes on). */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SwitchboardError("unavailable", `${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

interface Gone {
  name: string;
  reason: string;
  /** Resolves once the server answers again. */
  probe: () => Promise<unknown>;
}

/**
 * The servers one bridge (a modern host's, or a legacy host's session) left out of its lists,
 * each tried again every RECHECK_MS until it answers: then `back` tells the bridge's hosts that
 * the lists changed. Each change is one line in the console's log.
 */
export class Unreachable {
  private readonly gone = new Map<string, Gone>();
  private timer: NodeJS.Timeout | null = null;
  private checking = false;

  constructor(
    private readonly path: () => string,
    private readonly back: () => void,
  ) {}

  has(serverId: string): boolean {
    return this.gone.has(serverId);
  }

  left(server: Pick<ServerSecretRow, "id" | "name">, reason: string, probe: () => Promise<unknown>): void {
    const before = this.gone.get(server.id);
    this.gone.set(server.id, { name: server.name, reason, probe });
    if (before?.reason !== reason) console.warn(`[gateway] ${server.name} left out of ${this.path()}: ${reason}`);
    this.timer ??= setInterval(() => void this.recheck(), RECHECK_MS).unref();
  }

  reached(server: Pick<ServerSecretRow, "id" | "name">): void {
    if (!this.gone.delete(server.id)) return;
    console.log(`[gateway] ${server.name} is reachable again at ${this.path()}: its tools, prompts and resources are back (list_changed sent)`);
    if (!this.gone.size) this.stop();
    this.back();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async recheck(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      await Promise.all(
        [...this.gone].map(async ([id, gone]) => {
          try {
            await gone.probe();
          } catch {
            return;
          }
          if (this.gone.get(id) === gone) this.reached({ id, name: gone.name });
        }),
      );
    } finally {
      this.checking = false;
    }
  }
}
