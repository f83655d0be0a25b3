import { setTimeout as sleep } from "node:timers/promises";
import { databaseFault } from "./faults";

/**
 * True when `err`, or an error it wraps (`cause`), is the console's own database being away or
 * refusing writes for now (the API's 503 and 507, lib/core/db/faults.ts): not a fault of what a step
 * called, nor a bug. A request the database refused as wrong (a NUL character) is not one.
 */
export function isDatabaseOutage(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    const code = databaseFault(e)?.code;
    if (code === "unavailable" || code === "insufficient_storage") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Like `isDatabaseOutage`, for errors that may also be a remote server's (a call's request path):
 * only a link the database's own clients raised counts (Prisma's errors, its driver adapter's,
 * pg's server errors with a severity), since a bare ECONNREFUSED or ECONNRESET there is as likely
 * the server's connection as the database's.
 */
export function isOwnDatabaseOutage(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    const { name, severity } = e as { name?: unknown; severity?: unknown };
    const fromDatabase = typeof severity === "string" || name === "DriverAdapterError" || (typeof name === "string" && name.startsWith("PrismaClient"));
    if (fromDatabase && isDatabaseOutage(e)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Waits before each new attempt: quick at first (a dropped connection), then every 2 s. */
const DELAYS_MS = [100, 250, 500, 1000, 2000];

/**
 * Runs `attempt` until it succeeds, again after a database outage (with back-off) until
 * `deadlineMs` have passed, then throws its last error. Any other error is thrown at once.
 */
export async function retryOnOutage<T>({ attempt, deadlineMs }: { attempt: () => Promise<T>; deadlineMs: number }): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      const delay = DELAYS_MS[Math.min(n, DELAYS_MS.length - 1)]!;
      if (!isDatabaseOutage(err) || Date.now() + delay > deadline) throw err;
      await sleep(delay, undefined, { ref: false });
    }
  }
}
