"use client";

import { useState } from "react";
import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { RoleGate } from "@/components/ui/role-gate";
import { formatTime } from "@/components/calls/format";
import type { ArchivedServerDto } from "@/lib/domains/servers";
import { useArchivedServers, useRestoreServer } from "@/lib/domains/servers/hooks";
import { PurgeServerDialog } from "./purge-server-dialog";
import { Cell, Row, Table } from "@/components/ui/table";

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
      <Table columns={["Name", "Archived", { name: "Calls", align: "right" }, { name: "Actions", hidden: true }]}>
          {archived.data.map((server) => (
            <Row key={server.id}>
              <Cell>
                <Link href={`/servers/${server.id}`} className="font-medium hover:underline">
                  {server.name}
                </Link>
              </Cell>
              <Cell label="Archived" className="text-xs text-muted">{formatTime(server.archivedAt)}</Cell>
              <Cell label="Calls" className="text-right text-xs tabular-nums">{server.callCount}</Cell>
              <Cell actions className="flex justify-end gap-1">
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
              </Cell>
            </Row>
          ))}
      </Table>
      <ErrorAlert error={restore.error} title="Could not restore" />
      {purging && <PurgeServerDialog server={purging} open onClose={() => setPurging(null)} />}
    </section>
  );
}
