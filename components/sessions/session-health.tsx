"use client";

import { Button } from "@/components/ui/button";
import type { SessionInfo } from "@/lib/domains/servers";
import { usePingServer } from "@/lib/domains/servers/hooks";
import { RoleGate } from "@/components/ui/role-gate";

/**
 * The Ping button and, while the session answers, its latency. A failed ping is the server's status
 * ("unhealthy" with its reason, `serverState` in components/servers/server-status.tsx), not a second word here.
 */
export function SessionHealth({ serverId, session }: { serverId: string; session: SessionInfo | null }) {
  const ping = usePingServer(serverId);
  const outcome = ping.data;
  const health = outcome?.health ?? session?.health ?? null;
  const latency = outcome ? outcome.latencyMs : (session?.lastPingMs ?? null);
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="session-health">
      {health === "healthy" && latency !== null && <span className="text-muted">ping {latency.toFixed(1)} ms</span>}
      <RoleGate action="ping">
        <Button size="sm" busy={ping.isPending} onClick={() => ping.mutate()}>
          Ping
        </Button>
      </RoleGate>
      {ping.error && <span className="text-red-600 dark:text-red-400">{ping.error.message}</span>}
    </div>
  );
}
