import Link from "next/link";
import { useId, type ReactNode } from "react";
import { cn } from "@/components/ui/cn";

export const COLORS = { calls: "var(--accent)", errors: "#dc2626", timeouts: "#9333ea", interrupted: "#64748b", p50: "#0891b2", p95: "#d97706", grid: "var(--line)", muted: "var(--muted)" };

/** A titled chart panel whose title links to the history filtered as the chart is. */
export function ChartCard({ title, href, summary, children, className }: { title: string; href: string; summary?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section aria-label={title} className={cn("flex min-w-0 flex-col gap-2 rounded-lg border bg-raised p-3", className)}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h2 className="text-sm font-semibold">{title}</h2>
        <Link href={href} className="text-xs text-accent hover:underline" aria-label={`${title} in history`}>
          Open in history →
        </Link>
      </div>
      {summary && <div className="text-xs text-muted">{summary}</div>}
      {children}
    </section>
  );
}

/** One figure of the summary row, linking to the calls behind it; `detail` says what it counts. */
export function Figure({ label, value, href, detail }: { label: string; value: string; href: string; detail?: string }) {
  const id = useId();
  const slug = label.toLowerCase().replace(/\W+/g, "-");
  return (
    <Link href={href} aria-label={`${label}: ${value}`} aria-describedby={detail ? id : undefined} className="flex min-w-0 flex-col rounded-lg border bg-raised px-3 py-2 hover:bg-hover">
      <span className="text-xs text-muted">{label}</span>
      <span className="truncate text-xl font-semibold tabular-nums" data-testid={`figure-${slug}`}>
        {value}
      </span>
      {detail && (
        <span id={id} className="text-xs text-muted" data-testid={`figure-${slug}-detail`}>
          {detail}
        </span>
      )}
    </Link>
  );
}

/** "2 errors, 1 timeout, 1 interrupted": each kind of failure, the empty ones left out. */
export function failureParts({ errors, timeouts, interrupted }: { errors: number; timeouts: number; interrupted: number }): string[] {
  const parts: string[] = [];
  if (errors) parts.push(plural(errors, "error"));
  if (timeouts) parts.push(plural(timeouts, "timeout"));
  if (interrupted) parts.push(`${interrupted.toLocaleString()} interrupted`);
  return parts;
}

/** What the percentiles leave out: "answered calls; 1 timeout not included". */
export function answeredOnly({ timeouts, interrupted }: { timeouts: number; interrupted: number }): string {
  const left = [timeouts ? plural(timeouts, "timeout") : "", interrupted ? `${interrupted.toLocaleString()} interrupted` : ""].filter(Boolean);
  return `answered calls${left.length ? `; ${left.join(", ")} not included` : ""}`;
}

export function plural(n: number, noun: string): string {
  return `${n.toLocaleString()} ${noun}${n === 1 ? "" : "s"}`;
}

/** A duration for an axis tick: short, one line ("250 ms", "1.5 s", "2 min"). */
export function formatTickMs(ms: number): string {
  if (ms >= 120_000) return `${Number((ms / 60_000).toFixed(1))} min`;
  if (ms >= 1000) return `${Number((ms / 1000).toFixed(1))} s`;
  return `${Number(ms.toFixed(1))} ms`;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "–";
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${ms >= 100 ? Math.round(ms) : Number(ms.toFixed(1))} ms`;
}

export function formatRate(errors: number, count: number): string {
  return count ? `${((errors / count) * 100).toFixed(1)}%` : "–";
}
