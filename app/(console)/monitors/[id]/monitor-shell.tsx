"use client";

import { UrlSegment } from "@/components/console/url-segment";
import { MonitorPage } from "@/components/monitors/monitor-page";

export function MonitorShell() {
  return <UrlSegment index={1}>{(id) => <MonitorPage key={id} id={id} />}</UrlSegment>;
}
