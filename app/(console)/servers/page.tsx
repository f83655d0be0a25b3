import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/console/page-header";
import { buttonClasses } from "@/components/ui/button";
import { ArchivedServers } from "@/components/servers/archived-servers";
import { ServerList } from "@/components/servers/server-list";
import { ExportServersLink } from "@/components/servers/export-servers-link";

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
            <Link href="/servers/new" className={buttonClasses("secondary", "md")}>
              New server
            </Link>
          </>
        }
      />
      <ServerList />
      <ArchivedServers />
    </div>
  );
}
