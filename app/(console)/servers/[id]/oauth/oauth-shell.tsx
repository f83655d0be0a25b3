"use client";

import { OAuthGuide } from "@/components/oauth/oauth-guide";
import { UrlSegment } from "@/components/console/url-segment";

export function OAuthShell() {
  return <UrlSegment index={1}>{(id) => <OAuthGuide key={id} id={id} />}</UrlSegment>;
}
