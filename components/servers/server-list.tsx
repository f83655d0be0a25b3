"use client";

import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/spinner";
import { useServers } from "@/lib/servers/hooks";
import { DemoOffer } from "./demo-offer";
import { ServerStatusLabel } from "./server-status";

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
            <Link href="/servers/new" className={buttonClasses("secondary")}>
              Add your first server
            </Link>
          </div>
        }
      >
        Point Switchboard at a Streamable HTTP or SSE endpoint, or import an <code>mcpServers</code> file. The demo server runs
        inside the console: a few tools, one answering with a UI card and one with an MCP App, in a minute.
      </EmptyState>
    );
  }
  return (
    <table className="sb-table w-full border-collapse text-sm">
      <thead>
        <tr className="border-b text-left text-xs text-muted">
          <th className="py-2 pr-3 font-medium">Name</th>
          <th className="py-2 pr-3 font-medium">Status</th>
          <th className="py-2 pr-3 font-medium">Endpoint</th>
          <th className="py-2 pr-3 font-medium">Server</th>
        </tr>
      </thead>
      <tbody>
        {servers.data.map((server) => (
          <tr key={server.id} className="border-b hover:bg-hover">
            <td className="py-2 pr-3">
              <Link href={`/servers/${server.id}`} className="font-medium hover:underline">
                {server.name}
              </Link>
            </td>
            <td className="py-2 pr-3">
              <ServerStatusLabel status={server.status} />
            </td>
            <td className="max-w-xs truncate py-2 pr-3 font-mono text-xs text-muted">
              {server.url ?? (server.stdio ? `stdio: ${server.stdio.command}` : server.kind)}
            </td>
            <td className="py-2 pr-3 text-xs text-muted">
              {server.session?.serverInfo ? `${server.session.serverInfo.name} ${server.session.serverInfo.version ?? ""}` : "—"}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
