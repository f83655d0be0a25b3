import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { CollectionsPage } from "@/components/collections/collections-page";

export const metadata: Metadata = { title: "Collections" };

export default function Collections() {
  return (
    <div className="flex flex-col gap-4 p-6">
      <PageHeader title="Collections" description="Ordered calls with assertions, run together from the console, a script or CI." />
      <CollectionsPage />
    </div>
  );
}
