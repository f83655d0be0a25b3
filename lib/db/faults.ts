import { SwitchboardError } from "@/lib/errors";

/** The driver's code under a Prisma error (driver adapters put it in meta.driverAdapterError), e.g. SQLITE_BUSY. */
function driverCode(err: unknown): string {
  const meta = (err as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null)?.meta;
  const code = meta?.driverAdapterError?.cause?.originalCode ?? (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

/**
 * A database fault as the API reports it: locked → 503 with Retry-After, full disk → 507, other
 * storage failures → 503. Null for anything else (a bug stays a 500). Extended codes
 * (SQLITE_IOERR_WRITE…) count as their primary code.
 */
export function databaseFault(err: unknown): SwitchboardError | null {
  const code = driverCode(err);
  const is = (primary: string) => code === primary || code.startsWith(`${primary}_`);
  if (is("SQLITE_BUSY") || is("SQLITE_LOCKED")) {
    return new SwitchboardError("unavailable", "The database is busy (locked by another process); nothing was changed. Try again shortly", { retryAfter: 2 });
  }
  if (is("SQLITE_FULL")) {
    return new SwitchboardError("insufficient_storage", "The disk holding the database is full; nothing was recorded. Free some space and try again", { retryAfter: 30 });
  }
  if (is("SQLITE_IOERR") || is("SQLITE_READONLY") || is("SQLITE_CANTOPEN")) {
    return new SwitchboardError("unavailable", `The database cannot be written (${code}); try again shortly`, { retryAfter: 5 });
  }
  return null;
}
