import "server-only";
import { RateLimiterPrisma, type RateLimiterAbstract, type RateLimiterRes } from "rate-limiter-flexible";
import { prisma } from "@/lib/db/client";
import { SwitchboardError } from "@/lib/errors";

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

/**
 * Failed sign-ins, counted three ways. One account from one address is stopped first, with a
 * backoff that doubles at each lockout (so guessing one password stays slow); one address is
 * stopped across all accounts (a spray); one account across all addresses much later, so that an
 * attacker cannot lock its owner out cheaply from a single address. The counters live in the
 * database (table rate_limit), so every instance behind one URL counts the same failures.
 */
const limiter = (keyPrefix: string, points: number, duration: number) =>
  new RateLimiterPrisma({ storeClient: prisma, tableName: "rateLimit", keyPrefix, points, duration });
const pair = limiter("pair", setting("SWITCHBOARD_SIGNIN_MAX_FAILURES", 5), 15 * 60);
const address = limiter("address", setting("SWITCHBOARD_SIGNIN_MAX_FAILURES_PER_ADDRESS", 30), 15 * 60);
const account = limiter("account", setting("SWITCHBOARD_SIGNIN_MAX_FAILURES_PER_ACCOUNT", 100), 60 * 60);
const lockouts = limiter("lockouts", 1_000_000, 24 * 60 * 60);
const BASE_BLOCK_S = setting("SWITCHBOARD_SIGNIN_BLOCK_SECONDS", 60);
const MAX_BLOCK_S = 60 * 60;

interface Attempt {
  email: string;
  address: string;
}

const keys = ({ email, address: from }: Attempt) => ({ pair: `${email.toLowerCase()}|${from}`, address: from, account: email.toLowerCase() });

/** 429 with Retry-After when any of the three limits is spent; nothing is checked against the password then. */
export async function assertSignInAllowed(attempt: Attempt): Promise<void> {
  const k = keys(attempt);
  const checks: [RateLimiterAbstract, string][] = [
    [pair, k.pair],
    [address, k.address],
    [account, k.account],
  ];
  for (const [limiter, key] of checks) {
    const state = await limiter.get(key);
    if (state && state.consumedPoints >= limiter.points) {
      const retryAfter = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
      throw new SwitchboardError("too_many_requests", `Too many failed sign-ins; try again in ${retryAfter} s`, { retryAfter });
    }
  }
}

/** Counts a failed sign-in; the pair's lockout grows 60 s, 120 s, 240 s … up to an hour. */
export async function recordSignInFailure(attempt: Attempt): Promise<void> {
  const k = keys(attempt);
  await Promise.all([address.penalty(k.address), account.penalty(k.account)]);
  const spent = await pair.penalty(k.pair);
  if (spent.consumedPoints >= pair.points) {
    const count = ((await lockouts.penalty(k.pair)) as RateLimiterRes).consumedPoints;
    await pair.block(k.pair, Math.min(BASE_BLOCK_S * 2 ** (count - 1), MAX_BLOCK_S));
  }
}

/** A successful sign-in clears the pair's count (not its lockout history, nor the broad limits). */
export async function recordSignInSuccess(attempt: Attempt): Promise<void> {
  await pair.delete(keys(attempt).pair);
}
