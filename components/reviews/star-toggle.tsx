"use client";

import { cn } from "@/components/ui/cn";
import { useStar } from "@/lib/domains/reviews/hooks";

/** A personal star on a call (any role may star; nobody else sees it). */
export function StarToggle({ callId, starred, className }: { callId: string; starred: boolean; className?: string }) {
  const star = useStar();
  return (
    <button
      type="button"
      aria-label="Star"
      aria-pressed={starred}
      title={starred ? "Starred by you; click to unstar" : "Star this call (only you see your stars)"}
      onClick={() => star.mutate({ callId, starred: !starred })}
      className={cn(
        "inline-flex size-7 shrink-0 items-center justify-center rounded-md text-base leading-none transition-colors hover:bg-hover",
        starred ? "text-amber-500" : "text-muted",
        className,
      )}
    >
      <span aria-hidden>{starred ? "★" : "☆"}</span>
    </button>
  );
}
