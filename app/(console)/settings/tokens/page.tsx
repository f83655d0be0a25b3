import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { TokensSettings } from "@/components/settings/tokens-settings";
import { WorkspacesSettings } from "@/components/settings/workspaces-settings";

export const metadata: Metadata = { title: "API tokens" };

export default function TokensPage() {
  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeader title="Settings" description="API tokens for scripts and the agent, and your workspaces." />
      <TokensSettings />
      <WorkspacesSettings />
    </div>
  );
}
