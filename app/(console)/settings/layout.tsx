import type { ReactNode } from "react";
import { PageHeader } from "@/components/console/page-header";
import { SettingsNav } from "@/components/settings/settings-nav";

export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-col gap-4 p-6">
      <PageHeader title="Settings" description="API tokens, the people in this workspace, and how it keeps and shares history." />
      <SettingsNav />
      {children}
    </div>
  );
}
