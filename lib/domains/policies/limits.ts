import "server-only";
import { RateLimiterPrisma } from "rate-limiter-flexible";
import { prisma } from "@/lib/core/db/client";
import { piece } from "@/lib/core/runtime";

const limiters = () => piece("policyLimiters", () => new Map<string, RateLimiterPrisma>());

/**
 * A limiter whose counters live in the database (table rate_limit, as the sign-in limiter's), so
 * every instance counts the same calls: `points` per `perSeconds`, one per (scope, limit), so a
 * changed limit starts counting afresh. A rule's `rateLimit` and the gateway's per-exposure limit.
 */
export function sharedLimiter({ scope, points, perSeconds }: { scope: string; points: number; perSeconds: number }): RateLimiterPrisma {
  const keyPrefix = `${scope}:${points}/${perSeconds}`;
  let limiter = limiters().get(keyPrefix);
  if (!limiter) limiters().set(keyPrefix, (limiter = new RateLimiterPrisma({ storeClient: prisma, tableName: "rateLimit", keyPrefix, points, duration: perSeconds })));
  return limiter;
}

export function ruleLimiter({ calls, perSeconds }: { calls: number; perSeconds: number }): RateLimiterPrisma {
  return sharedLimiter({ scope: "policy", points: calls, perSeconds });
}
