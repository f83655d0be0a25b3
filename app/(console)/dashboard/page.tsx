import { Suspense } from "react";
import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { DashboardPage } from "@/components/stats/dashboard-page";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Dashboard" };

export default function Dashboard() {
  return (
    <div className="flex flex-col gap-4 p-4 sm:p-6">
      <PageHeader title="Dashboard" description="How the servers are doing: calls, errors and durations over time." />
      <Suspense fallback={<Loading />}>
        <DashboardPage />
      </Suspense>
    </div>
  );
}
