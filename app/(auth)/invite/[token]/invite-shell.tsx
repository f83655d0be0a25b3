"use client";

import { InviteAccept } from "@/components/auth/invite-accept";
import { UrlSegment } from "@/components/console/url-segment";

export function InviteShell() {
  return <UrlSegment index={1}>{(token) => <InviteAccept key={token} token={token} />}</UrlSegment>;
}
