"use client";

import type { CallProgress } from "@/lib/domains/calls";

/**
 * A call's progress: a determinate bar when the server gave a total, an indeterminate one
 * otherwise, with the server's message (text only).
 */
export function ProgressBar({ progress }: { progress: CallProgress | null }) {
  const total = progress?.total && progress.total > 0 ? progress.total : undefined;
  const percent = total !== undefined && progress ? Math.min(100, Math.max(0, (progress.progress / total) * 100)) : undefined;
  const label = progress ? (total !== undefined ? `${progress.progress} / ${total}` : `${progress.progress}`) : "waiting for progress";
  return (
    <div className="flex flex-col gap-1" data-testid="call-progress">
      <div
        role="progressbar"
        aria-label="Progress"
        aria-valuemin={0}
        aria-valuemax={total !== undefined ? 100 : undefined}
        aria-valuenow={percent !== undefined ? Math.round(percent) : undefined}
        aria-valuetext={progress?.message ? `${label}: ${progress.message}` : label}
        className="relative h-2 w-full overflow-hidden rounded-full bg-hover"
      >
        {percent !== undefined ? (
          <div className="h-full rounded-full bg-blue-600 transition-[width] duration-300" style={{ width: `${percent}%` }} />
        ) : (
          <div className="absolute inset-y-0 left-0 w-1/3 animate-pulse rounded-full bg-blue-600/70" />
        )}
      </div>
      <p className="flex gap-2 text-xs text-muted tabular-nums">
        <span>{label}</span>
        {progress?.message && <span data-testid="progress-message">{progress.message}</span>}
      </p>
    </div>
  );
}
