import { Suspense } from "react";
import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { MonitorsPage } from "@/components/monitors/monitors-page";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Monitors" };

export default function Monitors() {
  return (
    <div className="flex flex-col gap-4 p-6">
      <PageHeader title="Monitors" description="Collections run on a schedule, with alerts when they fail, recover or are slow." />
      <Suspense fallback={<Loading />}>
        <MonitorsPage />
      </Suspense>
    </div>
  );
}
