"use client";

import { CollectionPage } from "@/components/collections/collection-page";
import { UrlSegment } from "@/components/console/url-segment";

export function CollectionShell() {
  return <UrlSegment index={1}>{(id) => <CollectionPage key={id} id={id} />}</UrlSegment>;
}
