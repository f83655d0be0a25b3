import { Suspense } from "react";
import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { ComparePageFromUrl } from "@/components/calls/compare-page";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Compare calls" };

// Static: the two calls come from the query string on the client (?a=&b=).
export default function Compare() {
  return (
    <div className="flex flex-col gap-4 p-6">
      <PageHeader title="Compare calls" description="Arguments and results side by side, with what changed." />
      <Suspense fallback={<Loading />}>
        <ComparePageFromUrl />
      </Suspense>
    </div>
  );
}
