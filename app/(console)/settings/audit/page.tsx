import { Suspense } from "react";
import type { Metadata } from "next";
import { AuditLog } from "@/components/settings/audit-log";
import { AuditStreaming } from "@/components/settings/audit-streaming";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Audit log" };

export default function AuditPage() {
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted">Who did what in this workspace, when and from where. Newest first; nothing here is ever edited.</p>
      <AuditStreaming />
      <Suspense fallback={<Loading />}>
        <AuditLog />
      </Suspense>
    </div>
  );
}
