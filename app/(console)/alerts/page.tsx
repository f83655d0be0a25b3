import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { AlertsPage } from "@/components/alerts/alerts-page";

export const metadata: Metadata = { title: "Alerts" };

export default function Alerts() {
  return (
    <div className="flex flex-col gap-4 p-6">
      <PageHeader title="Alerts" description="What monitors and watched servers raised, and whether each mail and webhook got through." />
      <AlertsPage />
    </div>
  );
}
