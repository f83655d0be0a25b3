"use client";

import { useHydrated } from "@/components/ui/use-hydrated";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { Loading } from "@/components/ui/spinner";

/**
 * Renders `children(segment)` with the URL's path segment at `index` (`/servers/<id>/oauth`: 1),
 * read in the browser. Pages whose content the client fetches anyway are one prerendered shell
 * for every id, so the server never sees it: while the shell hydrates this shows "Loading…" (what
 * the prerendered HTML has), from the first client render on the page itself.
 */
export function UrlSegment({ index, children }: { index: number; children: (segment: string) => ReactNode }) {
  const pathname = usePathname();
  const hydrated = useHydrated();
  const segment = hydrated ? pathname.split("/")[index + 1] : undefined;
  if (!segment) return <Loading />;
  return children(decodeURIComponent(segment));
}
