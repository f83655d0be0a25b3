import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { MonitorDto } from "@/lib/watch/monitors";

const TONE: Record<MonitorDto["state"], BadgeTone> = { passing: "green", failing: "red", slow: "amber", unknown: "neutral" };

/** A monitor's state in words and colour; a disabled monitor says so beside it. */
export function MonitorStateBadge({ monitor }: { monitor: Pick<MonitorDto, "state" | "enabled"> }) {
  return (
    <span className="inline-flex items-center gap-1">
      <Badge tone={TONE[monitor.state] ?? "neutral"} testId="monitor-state">
        {monitor.state}
      </Badge>
      {!monitor.enabled && <Badge testId="monitor-disabled">disabled</Badge>}
    </span>
  );
}
