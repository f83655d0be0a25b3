"use client";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { SessionInfo } from "@/lib/domains/servers";
import { usePingServer } from "@/lib/domains/servers/hooks";
import { RoleGate } from "@/components/ui/role-gate";

/** The session's health from its last ping, with a Ping button showing the measured latency. */
export function SessionHealth({ serverId, session }: { serverId: string; session: SessionInfo | null }) {
  const ping = usePingServer(serverId);
  const outcome = ping.data;
  const health = outcome?.health ?? session?.health ?? null;
  const error = outcome ? outcome.error : (session?.healthError ?? null);
  const latency = outcome ? outcome.latencyMs : (session?.lastPingMs ?? null);
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="session-health">
      {health && (
        <Badge tone={health === "healthy" ? "green" : "red"} title={error ?? undefined}>
          {health}
        </Badge>
      )}
      {health === "healthy" && latency !== null && <span className="text-muted">ping {latency.toFixed(1)} ms</span>}
      {health === "unhealthy" && error && <span className="text-red-600 dark:text-red-400">{error}</span>}
      <RoleGate action="ping">
      <Button size="sm" busy={ping.isPending} onClick={() => ping.mutate()}>
        Ping
      </Button>
      </RoleGate>
      {ping.error && <span className="text-red-600 dark:text-red-400">{ping.error.message}</span>}
    </div>
  );
}
