import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { MocksPage } from "@/components/mocks/mocks-page";

export const metadata: Metadata = { title: "Mocks" };

export default function Mocks() {
  return (
    <div className="flex flex-col gap-4 p-4 sm:p-6">
      <PageHeader title="Mocks" description="MCP endpoints that answer with recorded calls: for CI and offline work, made from History or a collection's run." />
      <MocksPage />
    </div>
  );
}
