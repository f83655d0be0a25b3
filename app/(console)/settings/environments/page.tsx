import type { Metadata } from "next";
import { EnvironmentsSettings } from "@/components/collections/environments-settings";

export const metadata: Metadata = { title: "Environments" };

export default function EnvironmentsPage() {
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted">
        Named sets of values and server aliases a collection runs with, e.g. staging and production pointing the same steps at different servers.
      </p>
      <EnvironmentsSettings />
    </div>
  );
}
