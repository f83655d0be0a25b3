"use client";

import { useEffect, useMemo, useState } from "react";
import { SharedCallView } from "@/components/shares/shared-call-view";
import { SharedRunView } from "@/components/shares/shared-run-view";
import { ShareGone, SharedPage, ShareUnknown } from "@/components/shares/shared-page";
import { formatTime } from "@/components/calls/format";
import { Loading } from "@/components/ui/spinner";
import { useHydrated } from "@/components/ui/use-hydrated";
import { SHARE_PAGE_DATA_ID, type SharePageData } from "@/lib/domains/shares";

type Shown = SharePageData | { status: 0 };

/**
 * What the console served with this document (lib/domains/shares/page-front.ts), if this page is
 * the one the document was loaded for: a client navigation here (or Next serving the shell, as in
 * development) finds none and asks the public API.
 */
function servedWithDocument(): SharePageData | null {
  const element = document.getElementById(SHARE_PAGE_DATA_ID);
  const loaded = performance.getEntriesByType("navigation")[0]?.name;
  if (!element?.textContent || !loaded || new URL(loaded).pathname !== location.pathname) return null;
  return JSON.parse(element.textContent) as SharePageData;
}

async function fromApi(signal: AbortSignal): Promise<Shown> {
  const token = location.pathname.split("/")[2] ?? "";
  // No cookies: the link is public, and a public route with cookies wants an Origin header.
  const res = await fetch(`/api/v1/public/shares/${token}`, { headers: { accept: "application/json" }, credentials: "omit", signal });
  const body = (await res.json().catch(() => null)) as SharePageData["body"] | null;
  return body && [200, 404, 410].includes(res.status) ? ({ status: res.status, body } as SharePageData) : { status: 0 };
}

/** The shared call or run, or why the link shows nothing; "Loading…" in the prerendered HTML. */
export function SharedShell() {
  const hydrated = useHydrated();
  const served = useMemo(() => (hydrated ? servedWithDocument() : null), [hydrated]);
  const [fetched, setFetched] = useState<Shown | null>(null);
  useEffect(() => {
    if (!hydrated || served) return;
    const aborted = new AbortController();
    fromApi(aborted.signal).then(setFetched, () => aborted.signal.aborted || setFetched({ status: 0 }));
    return () => aborted.abort();
  }, [hydrated, served]);

  const shown = served ?? fetched;
  if (!shown) {
    return (
      <SharedPage>
        <Loading />
      </SharedPage>
    );
  }
  if (shown.status === 0) {
    return (
      <SharedPage>
        <p role="alert" className="mt-16 text-center text-sm text-muted">
          Could not load this share link. Reload the page to try again.
        </p>
      </SharedPage>
    );
  }
  if (shown.status !== 200) return shown.status === 410 ? <ShareGone reason={shown.body.error.message} /> : <ShareUnknown />;
  const shared = shown.body;
  const footer = (
    <p className="text-xs text-muted">
      Shared {formatTime(shared.share.createdAt)}
      {shared.share.expiresAt ? `; the link expires ${formatTime(shared.share.expiresAt)}` : ""}. Fields such as passwords and tokens are masked.
    </p>
  );
  if (shared.kind === "run") {
    return (
      <SharedPage what="run">
        <SharedRunView run={shared.run} footer={footer} />
      </SharedPage>
    );
  }
  return (
    <SharedPage>
      <SharedCallView call={shared.call} footer={footer} />
    </SharedPage>
  );
}
