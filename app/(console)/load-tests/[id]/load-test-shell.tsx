"use client";

import { LoadTestPage } from "@/components/load-tests/load-test-page";
import { UrlSegment } from "@/components/console/url-segment";

export function LoadTestShell() {
  return (
    <div className="flex flex-col gap-4 p-6 max-sm:p-3">
      <UrlSegment index={1}>{(id) => <LoadTestPage key={id} id={id} />}</UrlSegment>
    </div>
  );
}
