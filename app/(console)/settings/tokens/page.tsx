import type { Metadata } from "next";
import { TokensSettings } from "@/components/settings/tokens-settings";
import { WorkspacesSettings } from "@/components/settings/workspaces-settings";

export const metadata: Metadata = { title: "API tokens" };

export default function TokensPage() {
  return (
    <div className="flex flex-col gap-6">
      <TokensSettings />
      <WorkspacesSettings />
    </div>
  );
}
