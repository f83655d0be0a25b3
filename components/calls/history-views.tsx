"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";
import { ANY_ORIGIN, AUTOMATIC_ORIGINS, HISTORY_VIEWS, type CallOrigin } from "@/lib/domains/calls";
import type { CallFilters } from "@/lib/domains/calls/hooks";

export interface ViewLink {
  label: string;
  href: string;
  active: boolean;
}

/** Views of one list one click apart, as links (the URL keeps the choice, so it can be shared). */
export function ViewSwitch({ label, views, className }: { label: string; views: ViewLink[]; className?: string }) {
  return (
    <nav aria-label={label} className={cn("inline-flex shrink-0 rounded-md border bg-panel p-0.5 text-sm", className)}>
      {views.map((view) => (
        <Link
          key={view.label}
          href={view.href}
          replace
          scroll={false}
          aria-current={view.active ? "true" : undefined}
          className={cn("rounded px-2.5 py-1 font-medium", view.active ? "bg-raised text-fg shadow-sm" : "text-muted hover:text-fg")}
        >
          {view.label}
        </Link>
      ))}
    </nav>
  );
}

/** The view a history filter shows: an automatic origin's own, else people's (none when every origin is asked for). */
function viewOf(origin: string | undefined): string | undefined | null {
  if (origin === ANY_ORIGIN) return null;
  return origin && AUTOMATIC_ORIGINS.includes(origin as CallOrigin) ? origin : undefined;
}

/** History's views: people's work by default, a monitor's runs one click away; the other filters stay. */
export function HistoryViews({ filters }: { filters: CallFilters }) {
  const pathname = usePathname();
  const current = viewOf(filters.origin);
  const views = HISTORY_VIEWS.map((view): ViewLink => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries({ ...filters, origin: view.origin })) if (value) params.set(key, String(value));
    const qs = params.toString();
    return { label: view.label, href: qs ? `${pathname}?${qs}` : pathname, active: current === view.origin };
  });
  return <ViewSwitch label="Whose calls" views={views} />;
}
