import { SwitchboardError } from "@/lib/core/errors";

type AdapterCause = { originalCode?: unknown; kind?: unknown };

/**
 * What the driver adapter said under a Prisma error: in `meta.driverAdapterError.cause` when the
 * query engine wrapped it, in `cause` when the adapter's error surfaced as is (DriverAdapterError).
 */
function adapterCause(err: unknown): AdapterCause {
  const e = err as { meta?: { driverAdapterError?: { cause?: AdapterCause } }; name?: unknown; cause?: AdapterCause } | null;
  return e?.meta?.driverAdapterError?.cause ?? (e?.name === "DriverAdapterError" ? e.cause : undefined) ?? {};
}

/** The driver's code, e.g. SQLITE_BUSY or a PostgreSQL SQLSTATE. */
function driverCode(err: unknown): string {
  const code = adapterCause(err).originalCode ?? (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

/** The adapter's kind for PostgreSQL faults it names itself (DatabaseNotReachable, TooManyConnections…). */
function driverKind(err: unknown): string {
  const kind = adapterCause(err).kind;
  return typeof kind === "string" ? kind : "";
}

/**
 * A unique constraint refused the write (Prisma's P2002). Checked by shape, not `instanceof`: the
 * PostgreSQL client is generated with its own copy of Prisma's runtime, hence its own error classes.
 */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { name?: unknown; code?: unknown } | null)?.name === "PrismaClientKnownRequestError" && (err as { code?: unknown }).code === "P2002";
}

// PostgreSQL SQLSTATEs that mean "not now" rather than "wrong": lock and serialization conflicts,
// a server shutting down or starting, too many connections, out of resources.
const POSTGRES_RETRY = /^(40001|40P01|55P03|57P01|57P02|57P03|53000|53200|53300|53400|08\w{3})$/;
// The journal's statements (lib/domains/calls/journal.ts) reach pg without the adapter naming its faults.
const SOCKET_FAULT = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN)$/;
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
  if (code === "22021" || code === "22P05") {
    return new SwitchboardError("bad_request", "The request holds a character the database cannot store (such as NUL); nothing was changed");
  }
  if (code === "53100") {
    return new SwitchboardError("insufficient_storage", "The database server's disk is full; nothing was recorded. Free some space and try again", { retryAfter: 30 });
  }
  if (POSTGRES_RETRY.test(code) || SOCKET_FAULT.test(code) || POSTGRES_UNREACHABLE.has(driverKind(err)) || (err as { name?: unknown } | null)?.name === "PrismaClientInitializationError") {
    return new SwitchboardError("unavailable", "The database server is not available right now; nothing was changed. Try again shortly", { retryAfter: 2 });
  }
  return null;
}
