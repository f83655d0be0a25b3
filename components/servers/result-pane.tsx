"use client";

import { useEffect, useRef, type ReactNode } from "react";

/**
 * Where a run's result lands. When a new one arrives (`arrival` changes) it is brought into view
 * if it is not; and when the pane sits below the form (a narrow screen) and the person ran from the
 * form, focus follows it, so a keyboard or screen-reader user is where the result is. Beside the
 * form (wide screens) focus stays in the form for the next run, unless it was lost.
 */
export function ResultPane({ arrival, children }: { arrival: string | null; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const pane = ref.current;
    if (!arrival || !pane) return;
    const rect = pane.getBoundingClientRect();
    const stacked = pane.previousElementSibling ? pane.previousElementSibling.getBoundingClientRect().bottom <= rect.top : true;
    // Below the form, a result that starts low and runs past the fold is brought up; beside it, only one out of sight.
    const low = stacked ? rect.bottom > window.innerHeight && rect.top > window.innerHeight * 0.35 : rect.top > window.innerHeight - 96;
    if (rect.top < 0 || low) pane.scrollIntoView({ block: "start" });
    // Run turns disabled while the call runs, which drops focus to the body: it lands on the result then.
    const active = document.activeElement;
    const lost = !active || active === document.body;
    if (lost || (stacked && pane.parentElement?.contains(active))) pane.focus({ preventScroll: true });
  }, [arrival]);
  return (
    <div ref={ref} tabIndex={-1} role="region" aria-label="Run result" data-testid="result-pane" className="flex min-w-0 scroll-mt-2 flex-col gap-3 outline-none">
      {children}
    </div>
  );
}
