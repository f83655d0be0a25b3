"use client";

import { ReplayPage } from "@/components/replays/replay-page";
import { UrlSegment } from "@/components/console/url-segment";

export function ReplayShell() {
  return <UrlSegment index={1}>{(id) => <ReplayPage key={id} id={id} />}</UrlSegment>;
}
