import { Suspense } from "react";
import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { PoliciesPage } from "@/components/policies/policies-page";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Policies" };

export default function Policies() {
  return (
    <div className="flex flex-col gap-4 p-6">
      <PageHeader title="Policies" description="Rules that decide, for every call through the API and the gateway, whether it goes through, is refused or waits for a person's approval." />
      <Suspense fallback={<Loading />}>
        <PoliciesPage />
      </Suspense>
    </div>
  );
}
