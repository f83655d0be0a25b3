import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { RunStatus, StepRunStatus } from "@/lib/domains/collections";

const TONE: Record<RunStatus | StepRunStatus, BadgeTone> = {
  pending: "neutral",
  running: "blue",
  passed: "green",
  failed: "red",
  error: "amber",
  interrupted: "neutral",
  skipped: "neutral",
};

/** A run's or a step's status, in words and colour. */
export function RunStatusBadge({ status, testId = "run-status" }: { status: RunStatus | StepRunStatus; testId?: string }) {
  return (
    <Badge tone={TONE[status] ?? "neutral"} testId={testId}>
      {status}
    </Badge>
  );
}
