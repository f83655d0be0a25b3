import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { LoadTestsPage } from "@/components/load-tests/load-tests-page";

export const metadata: Metadata = { title: "Load tests" };

export default function LoadTests() {
  return (
    <div className="flex flex-col gap-4 p-6 max-sm:p-3">
      <PageHeader title="Load tests" description="A collection or one call, run by many virtual users at once: calls/s, p50/p95/p99 and errors, live." />
      <LoadTestsPage />
    </div>
  );
}
