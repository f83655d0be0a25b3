import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { ApprovalsPage } from "@/components/approvals/approvals-page";

export const metadata: Metadata = { title: "Approvals" };

export default function Approvals() {
  return (
    <div className="flex flex-col gap-4 p-4 sm:p-6">
      <PageHeader title="Approvals" description="Calls that a rule holds until a person approves them. No decision before the deadline is a denial." />
      <ApprovalsPage />
    </div>
  );
}
