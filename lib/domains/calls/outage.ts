import "server-only";
import { isOwnDatabaseOutage } from "@/lib/core/db/client";
import { SwitchboardError } from "@/lib/core/errors";
import { completeDurably } from "./complete";
import type { CallError } from "./index";

const OWN_OUTAGE: CallError = { kind: "interrupted", message: "The console's own database failed during the call: its outcome is unknown. Run it again" };
const INTERRUPTED = JSON.stringify(OWN_OUTAGE);

// The fault goes along as `cause`: callers such as a collection's runner tell the console's own outage from a server's failure by it (lib/core/db/outage.ts).
const unavailable = (message: string, cause: unknown, details: Record<string, unknown> = {}) => Object.assign(new SwitchboardError("unavailable", message, { ...details, retryAfter: 2 }), { cause });

/** The console's own database failed before anything was sent (opening a session): a 503, no call recorded. */
export function unsentOnOutage(err: unknown): void {
  if (isOwnDatabaseOutage(err)) throw unavailable("The console's database is not available right now; nothing was sent. Try again shortly", err);
}

/**
 * A call its console's own database failed in the middle of (a read on the way out, such as the
 * workspace's network policy, or one a server's request needed) did not end in anything the
 * server said: it is never recorded as the server's outcome. Its row is marked interrupted
 * (durably: ./complete.ts) and the caller gets a 503 with Retry-After naming it. Returns for
 * anything else, which is the server's failure.
 */
export async function refuseOwnOutage({ id, err, startedAt }: { id: string; err: unknown; startedAt: Date }): Promise<void> {
  if (!isOwnDatabaseOutage(err)) return;
  const finishedAt = new Date();
  const completion = { status: "interrupted" as const, isError: false, result: null, error: INTERRUPTED, finishedAt, durationMs: finishedAt.getTime() - startedAt.getTime(), resultSize: null };
  // Still refused after the retries: the write goes on in the background (./complete.ts).
  await completeDurably(id, completion).catch(() => undefined);
  throw unavailable("The console's database failed during the call, so its outcome is unknown (recorded as interrupted). Try again shortly", err, { callId: id });
}

/** A relayed (gateway) call's failure that was the console's own database: interrupted, not the server's outcome; null for anything else. */
export function ownOutageOutcome(err: unknown): { status: "interrupted"; error: CallError } | null {
  return isOwnDatabaseOutage(err) ? { status: "interrupted", error: OWN_OUTAGE } : null;
}
