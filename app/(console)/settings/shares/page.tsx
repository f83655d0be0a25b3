import type { Metadata } from "next";
import { SharesSettings } from "@/components/shares/shares-settings";

export const metadata: Metadata = { title: "Share links" };

export default function SharesPage() {
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted">Public read-only links to calls: who made them, when they expire, how often they were opened.</p>
      <SharesSettings />
    </div>
  );
}
