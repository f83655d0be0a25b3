import { SwitchboardError } from "@/lib/errors";

/** The driver's code under a Prisma error (driver adapters put it in meta.driverAdapterError), e.g. SQLITE_BUSY. */
function driverCode(err: unknown): string {
  const meta = (err as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null)?.meta;
  const code = meta?.driverAdapterError?.cause?.originalCode ?? (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

/** The adapter's kind for PostgreSQL faults it names itself (DatabaseNotReachable, TooManyConnections…). */
function driverKind(err: unknown): string {
  const meta = (err as { meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } } | null)?.meta;
  const kind = meta?.driverAdapterError?.cause?.kind;
  return typeof kind === "string" ? kind : "";
}

// PostgreSQL SQLSTATEs that mean "not now" rather than "wrong": lock and serialization conflicts,
// a server shutting down or starting, too many connections, out of resources.
const POSTGRES_RETRY = /^(40001|40P01|55P03|57P01|57P02|57P03|53000|53200|53300|53400|08\w{3})$/;
const POSTGRES_UNREACHABLE = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "TransactionWriteConflict"]);

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
  if (code === "53100") {
    return new SwitchboardError("insufficient_storage", "The database server's disk is full; nothing was recorded. Free some space and try again", { retryAfter: 30 });
  }
  if (POSTGRES_RETRY.test(code) || POSTGRES_UNREACHABLE.has(driverKind(err)) || (err as { name?: unknown } | null)?.name === "PrismaClientInitializationError") {
    return new SwitchboardError("unavailable", "The database server is not available right now; nothing was changed. Try again shortly", { retryAfter: 2 });
  }
  return null;
}
