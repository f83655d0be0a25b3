"use client";

import { useState } from "react";
import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { RoleGate } from "@/components/ui/role-gate";
import { formatTime } from "@/components/calls/format";
import type { ArchivedServerDto } from "@/lib/servers";
import { useArchivedServers, useRestoreServer } from "@/lib/servers/hooks";
import { PurgeServerDialog } from "./purge-server-dialog";

/** Archived servers (deleted, history kept) with Restore and Purge; nothing when there are none. */
export function ArchivedServers() {
  const archived = useArchivedServers();
  const restore = useRestoreServer();
  const [purging, setPurging] = useState<ArchivedServerDto | null>(null);
  if (!archived.data?.length) return <ErrorAlert error={archived.error} title="Could not list archived servers" />;

  return (
    <section aria-labelledby="archived-servers" className="flex flex-col gap-2">
      <h2 id="archived-servers" className="text-sm font-semibold">
        Archived servers
      </h2>
      <p className="text-xs text-muted">Their history stays readable. Restore one to use it again, or purge it to delete its calls for good.</p>
      <table className="sb-table w-full border-collapse text-sm">
        <thead>
          <tr className="border-b text-left text-xs text-muted">
            <th className="py-2 pr-3 font-medium">Name</th>
            <th className="py-2 pr-3 font-medium">Archived</th>
            <th className="py-2 pr-3 text-right font-medium">Calls</th>
            <th className="py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {archived.data.map((server) => (
            <tr key={server.id} className="border-b">
              <td className="py-2 pr-3">
                <Link href={`/servers/${server.id}`} className="font-medium hover:underline">
                  {server.name}
                </Link>
              </td>
              <td data-label="Archived" className="py-2 pr-3 text-xs text-muted">{formatTime(server.archivedAt)}</td>
              <td data-label="Calls" className="py-2 pr-3 text-right text-xs tabular-nums">{server.callCount}</td>
              <td className="flex justify-end gap-1 py-2">
                <RoleGate min="admin">
                  <Button size="sm" aria-label={`Restore ${server.name}`} busy={restore.isPending && restore.variables === server.id} onClick={() => restore.mutate(server.id)}>
                    Restore
                  </Button>
                </RoleGate>
                <RoleGate min="admin">
                  <Button size="sm" variant="ghost" className="text-red-600 dark:text-red-400" aria-label={`Purge ${server.name}`} onClick={() => setPurging(server)}>
                    Purge…
                  </Button>
                </RoleGate>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorAlert error={restore.error} title="Could not restore" />
      {purging && <PurgeServerDialog server={purging} open onClose={() => setPurging(null)} />}
    </section>
  );
}
