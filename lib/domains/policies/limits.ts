import "server-only";
import { RateLimiterPrisma } from "rate-limiter-flexible";
import { prisma } from "@/lib/core/db/client";
import { piece } from "@/lib/core/runtime";

const limiters = () => piece("policyLimiters", () => new Map<string, RateLimiterPrisma>());

/**
 * The limiter of a rule's `rateLimit`: its counters live in the database (table rate_limit, as the
 * sign-in limiter's), so every instance counts the same calls. One per limit, keyed by it, so a
 * changed limit starts counting afresh.
 */
export function ruleLimiter({ calls, perSeconds }: { calls: number; perSeconds: number }): RateLimiterPrisma {
  const keyPrefix = `policy:${calls}/${perSeconds}`;
  let limiter = limiters().get(keyPrefix);
  if (!limiter) limiters().set(keyPrefix, (limiter = new RateLimiterPrisma({ storeClient: prisma, tableName: "rateLimit", keyPrefix, points: calls, duration: perSeconds })));
  return limiter;
}
