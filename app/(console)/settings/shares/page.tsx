import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { SharesSettings } from "@/components/shares/shares-settings";

export const metadata: Metadata = { title: "Share links" };

export default function SharesPage() {
  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeader title="Share links" description="Public read-only links to calls: who made them, when they expire, how often they were opened." />
      <SharesSettings />
    </div>
  );
}
