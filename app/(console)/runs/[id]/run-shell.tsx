"use client";

import { RunPage } from "@/components/collections/run-page";
import { UrlSegment } from "@/components/console/url-segment";

export function RunShell() {
  return <UrlSegment index={1}>{(id) => <RunPage key={id} id={id} />}</UrlSegment>;
}
