import type { LintReport } from "@/lib/domains/quality";

type HistoryPoint = LintReport["history"][number];

/** The history oldest first, whatever order the API answered in. */
export function chronological(history: HistoryPoint[]): HistoryPoint[] {
  return [...history].sort((a, b) => a.takenAt.localeCompare(b.takenAt));
}

export interface TokenChange {
  previous: HistoryPoint;
  delta: number;
  /** null when the previous total was 0 (no percentage of nothing). */
  percent: number | null;
}

/** How the token total of `snapshotId` (else the latest) moved since the snapshot before it; null for the first. */
export function changeSince(history: HistoryPoint[], snapshotId: string | null): TokenChange | null {
  const points = chronological(history);
  const at = snapshotId ? points.findIndex((p) => p.snapshotId === snapshotId) : points.length - 1;
  if (at < 1) return null;
  const previous = points[at - 1]!;
  const delta = points[at]!.total - previous.total;
  return { previous, delta, percent: previous.total === 0 ? null : (delta / previous.total) * 100 };
}

/** "+27 %", "-3.5 %", "±0 %": whole percents from 10 up, one decimal below. */
export function formatPercent(percent: number): string {
  const abs = Math.abs(percent);
  const rounded = abs >= 10 ? Math.round(abs) : Math.round(abs * 10) / 10;
  if (rounded === 0) return "±0 %";
  return `${percent > 0 ? "+" : "-"}${rounded.toLocaleString("en-US")} %`;
}

/** "+1,204 tokens" / "-80 tokens". */
export function formatDelta(delta: number): string {
  const sign = delta > 0 ? "+" : delta < 0 ? "-" : "±";
  return `${sign}${Math.abs(delta).toLocaleString("en-US")} token${Math.abs(delta) === 1 ? "" : "s"}`;
}

/** "+27 % (+1,204 tokens)", or the tokens alone when there is no percentage. */
export function describeChange(change: TokenChange): string {
  return change.percent === null ? formatDelta(change.delta) : `${formatPercent(change.percent)} (${formatDelta(change.delta)})`;
}
