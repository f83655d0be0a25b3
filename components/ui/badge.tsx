import type { ReactNode } from "react";
import { cn } from "./cn";

export type BadgeTone = "neutral" | "green" | "red" | "amber" | "blue" | "violet";

const TONES: Record<BadgeTone, string> = {
  neutral: "bg-hover text-muted border-line",
  green: "bg-emerald-50 text-emerald-800 border-emerald-200 dark:bg-emerald-950/50 dark:text-emerald-300 dark:border-emerald-900",
  red: "bg-red-50 text-red-800 border-red-200 dark:bg-red-950/50 dark:text-red-300 dark:border-red-900",
  amber: "bg-amber-50 text-amber-800 border-amber-200 dark:bg-amber-950/50 dark:text-amber-300 dark:border-amber-900",
  blue: "bg-sky-50 text-sky-800 border-sky-200 dark:bg-sky-950/50 dark:text-sky-300 dark:border-sky-900",
  violet: "bg-violet-50 text-violet-800 border-violet-200 dark:bg-violet-950/50 dark:text-violet-300 dark:border-violet-900",
};

export function Badge({ tone = "neutral", children, className, title, testId }: { tone?: BadgeTone; children: ReactNode; className?: string; title?: string; testId?: string }) {
  return (
    <span title={title} data-testid={testId} className={cn("inline-flex items-center gap-1 rounded border px-1.5 py-px text-[11px] font-medium whitespace-nowrap", TONES[tone], className)}>
      {children}
    </span>
  );
}
