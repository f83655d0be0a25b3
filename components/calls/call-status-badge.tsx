import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { CallStatus } from "@/lib/domains/calls";

const TONE: Record<CallStatus, BadgeTone> = {
  pending: "blue",
  ok: "green",
  error: "red",
  cancelled: "neutral",
  timeout: "amber",
  interrupted: "amber",
  denied: "red",
};

export function CallStatusBadge({ status, isError, testId = "call-status" }: { status: CallStatus; isError?: boolean; testId?: string }) {
  return (
    <Badge tone={TONE[status] ?? "neutral"} testId={testId} title={isError ? "The tool reported an error (isError)" : undefined}>
      {status}
    </Badge>
  );
}
