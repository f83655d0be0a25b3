import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { ArchivedServers } from "@/components/servers/archived-servers";
import { ServerList } from "@/components/servers/server-list";
import { ExportServersLink } from "@/components/servers/export-servers-link";
import { NewServerLink } from "@/components/servers/new-server-link";

export const metadata: Metadata = { title: "Servers" };

export default function ServersPage() {
  return (
    <div className="flex flex-col gap-4 p-6">
      <PageHeader
        title="Servers"
        description="MCP servers this workspace talks to."
        actions={
          <>
            <ExportServersLink />
            <NewServerLink />
          </>
        }
      />
      <ServerList />
      <ArchivedServers />
    </div>
  );
}
