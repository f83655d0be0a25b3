import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";

export const COLORS = { calls: "var(--accent)", errors: "#dc2626", p50: "#0891b2", p95: "#d97706", grid: "var(--line)", muted: "var(--muted)" };

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

/** One figure of the summary row, linking to the calls behind it. */
export function Figure({ label, value, href }: { label: string; value: string; href: string }) {
  return (
    <Link href={href} aria-label={`${label}: ${value}`} className="flex min-w-0 flex-col rounded-lg border bg-raised px-3 py-2 hover:bg-hover">
      <span className="text-xs text-muted">{label}</span>
      <span className="truncate text-xl font-semibold tabular-nums" data-testid={`figure-${label.toLowerCase().replace(/\W+/g, "-")}`}>
        {value}
      </span>
    </Link>
  );
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "–";
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${ms >= 100 ? Math.round(ms) : Number(ms.toFixed(1))} ms`;
}

export function formatRate(errors: number, count: number): string {
  return count ? `${((errors / count) * 100).toFixed(1)}%` : "–";
}
