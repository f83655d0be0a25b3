import "server-only";
import type { Principal } from "@/lib/core/access";
import type { CallReview } from "./index";
import { noteCountsOf, starsOf, tagsOf } from "./queries";

// The review columns every call DTO carries (notes, tags and stars are written by lib/domains/reviews).

/**
 * The review columns of a set of calls (one history page or one call): three queries whatever
 * the page size. Calls missing from the map have no tags, no notes and no star.
 */
export async function reviewsFor(principal: Principal, callIds: string[]): Promise<Map<string, CallReview>> {
  const map = new Map<string, CallReview>();
  if (!callIds.length) return map;
  const [tags, stars, counts] = await Promise.all([
    tagsOf({ callIds }),
    starsOf({ userId: principal.userId, callIds }),
    noteCountsOf({ callIds }),
  ]);
  const entry = (id: string) => {
    let review = map.get(id);
    if (!review) map.set(id, (review = { tags: [], starred: false, noteCount: 0 }));
    return review;
  };
  for (const row of tags) entry(row.callId).tags.push(row.tag);
  for (const row of stars) entry(row.callId).starred = true;
  for (const row of counts) entry(row.callId).noteCount = row._count._all;
  return map;
}
