import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { ReplayItemStatus, ReplayStatus } from "@/lib/domains/replays";

const TONE: Record<ReplayStatus | ReplayItemStatus, BadgeTone> = {
  running: "blue",
  passed: "green",
  failed: "red",
  interrupted: "neutral",
  pending: "neutral",
  same: "green",
  different: "red",
  error: "amber",
};

/** A replay's or a replayed call's status, in words and colour. */
export function ReplayStatusBadge({ status, testId = "replay-status" }: { status: ReplayStatus | ReplayItemStatus; testId?: string }) {
  return (
    <Badge tone={TONE[status] ?? "neutral"} testId={testId}>
      {status}
    </Badge>
  );
}
