"use client";

import { UrlSegment } from "@/components/console/url-segment";
import { MockPage } from "@/components/mocks/mock-page";

export function MockShell() {
  return <UrlSegment index={1}>{(id) => <MockPage key={id} id={id} />}</UrlSegment>;
}
