"use client";

import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/spinner";
import { useServers } from "@/lib/domains/servers/hooks";
import { DemoOffer } from "./demo-offer";
import { NewServerLink } from "./new-server-link";
import { serverState, ServerStatusLabel } from "./server-status";
import { Cell, Row, Table } from "@/components/ui/table";

export function ServerList() {
  const servers = useServers();
  if (servers.isPending) {
    return (
      <div className="flex flex-col gap-2">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    );
  }
  if (servers.error) return <ErrorAlert error={servers.error} title="Could not load servers" />;
  if (servers.data.length === 0) {
    return (
      <EmptyState
        title="No servers yet — add one, or try the demo"
        action={
          <div className="flex flex-wrap items-start justify-center gap-2">
            <DemoOffer />
            <NewServerLink>Add your first server</NewServerLink>
          </div>
        }
      >
        Point Switchboard at a Streamable HTTP or SSE endpoint, or import an <code>mcpServers</code> file. The demo server runs
        inside the console: a few tools, one answering with a UI card and one with an MCP App, in a minute.
      </EmptyState>
    );
  }
  return (
    <Table columns={["Name", "Status", "Endpoint", "Server"]}>
        {servers.data.map((server) => (
          <Row key={server.id} hover>
            <Cell>
              <Link href={`/servers/${server.id}`} className="font-medium hover:underline">
                {server.name}
              </Link>
            </Cell>
            <Cell>
              <ServerStatusLabel state={serverState(server)} />
            </Cell>
            <Cell className="max-w-xs truncate font-mono text-xs text-muted">
              {server.url ?? (server.stdio ? `stdio: ${server.stdio.command}` : server.kind)}
            </Cell>
            <Cell className="text-xs text-muted">
              {server.session?.serverInfo ? `${server.session.serverInfo.name} ${server.session.serverInfo.version ?? ""}` : "—"}
            </Cell>
          </Row>
        ))}
    </Table>
  );
}
