"use client";

import { useState } from "react";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { RoleGate } from "@/components/ui/role-gate";
import { formatTime } from "@/components/calls/format";
import type { ServerDto } from "@/lib/domains/servers";
import { useRestoreServer } from "@/lib/domains/servers/hooks";
import { PurgeServerDialog } from "./purge-server-dialog";

/** On an archived server's page: what archived means, and Restore / Purge for admins. */
export function ArchivedNotice({ server }: { server: ServerDto }) {
  const restore = useRestoreServer();
  const [purging, setPurging] = useState(false);
  if (!server.archivedAt) return null;

  return (
    <>
      <Alert
        tone="warning"
        title={`Server archived ${formatTime(server.archivedAt)}`}
        action={
          <div className="flex gap-2">
            <RoleGate min="admin">
              <Button size="sm" variant="primary" busy={restore.isPending} onClick={() => restore.mutate(server.id)}>
                Restore
              </Button>
            </RoleGate>
            <RoleGate min="admin">
              <Button size="sm" variant="ghost" className="text-red-600 dark:text-red-400" onClick={() => setPurging(true)}>
                Purge…
              </Button>
            </RoleGate>
          </div>
        }
      >
        Its calls, sessions, logs and traffic stay readable, but nothing can connect to it or run on it until an admin restores it.
      </Alert>
      <ErrorAlert error={restore.error} title="Could not restore" />
      <PurgeServerDialog server={server} open={purging} onClose={() => setPurging(false)} />
    </>
  );
}
