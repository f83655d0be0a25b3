import { Suspense } from "react";
import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { AuditLog } from "@/components/settings/audit-log";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Audit log" };

export default function AuditPage() {
  return (
    <div className="flex flex-col gap-4 p-6">
      <PageHeader title="Audit log" description="Who did what in this workspace, when and from where. Newest first; nothing here is ever edited." />
      <Suspense fallback={<Loading />}>
        <AuditLog />
      </Suspense>
    </div>
  );
}
