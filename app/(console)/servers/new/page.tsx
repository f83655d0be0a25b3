import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { NewServer } from "@/components/servers/new-server";

export const metadata: Metadata = { title: "Add server" };

export default function NewServerPage() {
  return (
    <div className="flex flex-col gap-4 p-6">
      <PageHeader title="Add a server" description="Connect Switchboard to a Streamable HTTP or SSE MCP server, or import a config file." />
      <NewServer />
    </div>
  );
}
