"use client";

import { CallPage } from "@/components/calls/call-page";
import { UrlSegment } from "@/components/console/url-segment";

export function CallShell() {
  return <UrlSegment index={1}>{(id) => <CallPage key={id} id={id} />}</UrlSegment>;
}
