import "server-only";
import crypto from "node:crypto";
import { RateLimiterPrisma, type RateLimiterAbstract, type RateLimiterRes } from "rate-limiter-flexible";
import { config } from "@/lib/core/config";
import { prisma } from "@/lib/core/db/client";
import { SwitchboardError } from "@/lib/core/errors";

/**
 * Failed sign-ins, counted three ways. One account from one address is stopped first, with a
 * backoff that doubles at each lockout (so guessing one password stays slow); one address is
 * stopped across all accounts (a spray). One account across all addresses only slows down: past
 * its limit, each failure makes addresses new to the account wait a short pause, and addresses
 * that signed in to it before are not held up at all, so many addresses cannot lock its owner out.
 * The counters live in the database (table rate_limit), so every instance behind one URL counts
 * the same failures.
 */
const limiter = (keyPrefix: string, points: number, duration: number) =>
  new RateLimiterPrisma({ storeClient: prisma, tableName: "rateLimit", keyPrefix, points, duration });
const BASE_BLOCK_S = config().signinBlockSeconds;
const MAX_BLOCK_S = 60 * 60;
const pair = limiter("pair", config().signinMaxFailures, 15 * 60);
const address = limiter("address", config().signinMaxFailuresPerAddress, 15 * 60);
const account = limiter("account", config().signinMaxFailuresPerAccount, 60 * 60);
const accountPause = limiter("account-pause", 1, BASE_BLOCK_S);
const lockouts = limiter("lockouts", 1_000_000, 24 * 60 * 60);
const known = limiter("known", 1, 30 * 24 * 60 * 60);

interface Attempt {
  email: string;
  address: string;
}

const keys = ({ email, address: from }: Attempt) => {
  const account = email.toLowerCase();
  // Kept for a month: hashed, so the table does not list who signs in from where.
  const known = crypto.createHash("sha256").update(`${account}\n${from}`).digest("base64url");
  return { pair: `${account}|${from}`, address: from, account, known };
};

const spent = (state: RateLimiterRes | null, limiter: RateLimiterAbstract) => state !== null && state.consumedPoints >= limiter.points;

/** 429 with Retry-After when a limit is spent; nothing is checked against the password then. */
export async function assertSignInAllowed(attempt: Attempt): Promise<void> {
  const k = keys(attempt);
  const checks: [RateLimiterAbstract, string][] = [
    [pair, k.pair],
    [address, k.address],
  ];
  if (!spent(await known.get(k.known), known)) checks.push([accountPause, k.account]);
  for (const [limiter, key] of checks) {
    const state = await limiter.get(key);
    if (spent(state, limiter)) {
      const retryAfter = Math.max(1, Math.ceil(state!.msBeforeNext / 1000));
      throw new SwitchboardError("too_many_requests", `Too many failed sign-ins; try again in ${retryAfter} s`, { retryAfter });
    }
  }
}

/**
 * Counts a failed sign-in; the pair's lockout grows 60 s, 120 s, 240 s … up to an hour. Past the
 * account's limit, each failure pauses addresses new to the account for the first lockout's length.
 */
export async function recordSignInFailure(attempt: Attempt): Promise<void> {
  const k = keys(attempt);
  const [, accountState] = await Promise.all([address.penalty(k.address), account.penalty(k.account)]);
  if (spent(accountState, account)) await accountPause.block(k.account, BASE_BLOCK_S);
  const pairState = await pair.penalty(k.pair);
  if (spent(pairState, pair)) {
    const count = ((await lockouts.penalty(k.pair)) as RateLimiterRes).consumedPoints;
    await pair.block(k.pair, Math.min(BASE_BLOCK_S * 2 ** (count - 1), MAX_BLOCK_S));
  }
}

/**
 * A successful sign-in clears the pair's count (not its lockout history, nor the broad limits) and
 * remembers the address for the account for 30 days (each sign-in renews it).
 */
export async function recordSignInSuccess(attempt: Attempt): Promise<void> {
  const k = keys(attempt);
  await Promise.all([pair.delete(k.pair), known.set(k.known, known.points, known.duration)]);
}
