import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { LoadTestStatus } from "@/lib/domains/load-tests";

const TONE: Record<LoadTestStatus, BadgeTone> = { running: "blue", completed: "green", cancelled: "neutral", interrupted: "amber", failed: "red" };

export function LoadTestStatusBadge({ status }: { status: LoadTestStatus }) {
  return (
    <Badge tone={TONE[status] ?? "neutral"} testId="load-test-status">
      {status}
    </Badge>
  );
}
