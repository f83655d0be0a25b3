"use client";

import { ServerDetail } from "@/components/servers/server-detail";
import { UrlSegment } from "@/components/console/url-segment";

export function ServerShell() {
  return <UrlSegment index={1}>{(id) => <ServerDetail key={id} id={id} />}</UrlSegment>;
}
