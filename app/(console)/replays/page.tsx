import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { ReplaysPage } from "@/components/replays/replays-page";

export const metadata: Metadata = { title: "Replays" };

export default function Replays() {
  return (
    <div className="flex flex-col gap-4 p-4 sm:p-6">
      <PageHeader title="Replays" description="Recorded calls sent again to another server, answer by answer compared with what was recorded." />
      <ReplaysPage />
    </div>
  );
}
