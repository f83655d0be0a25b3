import { z } from "zod";
import { BUCKETS, bucketFor, MAX_BUCKETS, MAX_RANGE_DAYS, type Bucket } from "./index";

const DAY_MS = 86_400_000;

const Instant = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

/**
 * GET /api/v1/stats: `from`/`to` (default: the last 24 hours up to now), `bucket` (default:
 * derived from the range). The range holds calls with from ≤ startedAt ≤ to, as history's filters.
 */
export const StatsQuerySchema = z
  .object({
    serverId: z.string().min(1).max(100).optional(),
    from: Instant.optional(),
    to: Instant.optional(),
    bucket: z.enum(Object.keys(BUCKETS) as [Bucket, ...Bucket[]]).optional(),
  })
  .transform(({ serverId, from, to, bucket }, ctx) => {
    const end = to ?? new Date();
    const start = from ?? new Date(end.getTime() - DAY_MS);
    const range = end.getTime() - start.getTime();
    if (range <= 0) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "from must be before to" });
      return z.NEVER;
    }
    if (range > MAX_RANGE_DAYS * DAY_MS) {
      ctx.addIssue({ code: "custom", path: ["to"], message: `The range is at most ${MAX_RANGE_DAYS} days` });
      return z.NEVER;
    }
    const chosen = bucket ?? bucketFor(range);
    if (range / (BUCKETS[chosen] * 1000) > MAX_BUCKETS) {
      ctx.addIssue({ code: "custom", path: ["bucket"], message: `At most ${MAX_BUCKETS} buckets: choose a wider bucket for this range` });
      return z.NEVER;
    }
    return { serverId, from: start, to: end, bucket: chosen };
  });
export type StatsQuery = z.output<typeof StatsQuerySchema>;
