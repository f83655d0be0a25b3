import "server-only";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { piece } from "@/lib/core/runtime";
import type { GatewayPrincipal } from "./auth";
import { RPC, type RpcError } from "./policy";
import type { GatewayRoute } from "./routes";

const limiters = () => piece("gatewayLimiters", () => new Map<number, RateLimiterMemory>());

/** The exposure's calls-per-minute limit for one token (or OAuth client and person) on one server: null when within it. */
export async function limit(route: GatewayRoute, who: GatewayPrincipal): Promise<RpcError | null> {
  const points = route.rateLimitPerMinute;
  if (!points) return null;
  let limiter = limiters().get(points);
  if (!limiter) limiters().set(points, (limiter = new RateLimiterMemory({ points, duration: 60 })));
  try {
    await limiter.consume(`${route.serverId}:${who.limitKey}`);
    return null;
  } catch (res) {
    const retryAfter = res instanceof RateLimiterRes ? Math.ceil(res.msBeforeNext / 1000) : 60;
    return { code: RPC.rateLimited, message: `Rate limit: ${points} calls per minute through this gateway; retry in ${retryAfter} s`, data: { retryAfter } };
  }
}
