"use client";

import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/spinner";
import { useShares } from "@/lib/domains/shares/hooks";
import { ShareLinkList } from "./share-link-list";

/** Every share link of the workspace: active, expired and revoked. */
export function SharesSettings() {
  const shares = useShares();
  if (shares.isPending) return <Skeleton className="h-32 w-full" />;
  if (shares.error) return <ErrorAlert error={shares.error} title="Could not load share links" />;
  const items = shares.data.pages.flatMap((p) => p.items);
  return (
    <section aria-label="Share links" className="flex max-w-6xl flex-col gap-2">
      <ShareLinkList shares={items} showCall empty="Nobody has shared a call yet. Use Share on a call's page." />
      {shares.hasNextPage && (
        <Button size="sm" className="self-start" busy={shares.isFetchingNextPage} onClick={() => void shares.fetchNextPage()}>
          Show more
        </Button>
      )}
    </section>
  );
}
