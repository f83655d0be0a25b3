import { Suspense } from "react";
import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { HistoryPage } from "@/components/calls/history-page";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "History" };

export default function History() {
  return (
    <div className="flex flex-col gap-4 p-6">
      <PageHeader title="History" description="The calls people made in this workspace, newest first; monitors' calls are one click away." />
      <Suspense fallback={<Loading />}>
        <HistoryPage />
      </Suspense>
    </div>
  );
}
