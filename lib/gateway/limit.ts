import "server-only";
import { RateLimiterRes } from "rate-limiter-flexible";
import { sharedLimiter } from "@/lib/domains/policies/server";
import type { GatewayPrincipal } from "./auth";
import { RPC, type RpcError } from "./policy";
import type { GatewayRoute } from "./routes";

/**
 * The exposure's calls-per-minute limit for one token (or OAuth client and person) on one server:
 * null when within it. Counted in the database with the rules' limits, so every instance shares
 * one budget; the database away is an error to convert, not a refusal.
 */
export async function limit(route: GatewayRoute, who: GatewayPrincipal): Promise<RpcError | null> {
  const points = route.rateLimitPerMinute;
  if (!points) return null;
  try {
    await sharedLimiter({ scope: "gateway", points, perSeconds: 60 }).consume(`${route.serverId}:${who.limitKey}`);
    return null;
  } catch (res) {
    if (!(res instanceof RateLimiterRes)) throw res;
    const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return { code: RPC.rateLimited, message: `Rate limit: ${points} calls per minute through this gateway; retry in ${retryAfter} s`, data: { retryAfter } };
  }
}
