import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { databaseFault } from "@/lib/core/db/client";
import { SwitchboardError } from "@/lib/core/errors";
import { recordCompletion, type CallCompletion } from "./journal";

/** Waits between completion attempts while the caller waits (~4 s in all)… */
const RETRY_DELAYS_MS = [50, 250, 1000, 3000];
/** …then in the background, until the database takes it. */
const BACKGROUND_RETRY_MS = 5000;

/**
 * Records a finished call. A failed write (a lock held elsewhere, a full disk) is retried, never
 * given up: a call whose answer arrived must not stay `pending`. When the caller cannot wait any
 * longer it gets a 503 naming the call, and the write goes on in the background.
 */
export async function completeDurably(id: string, data: CallCompletion): Promise<void> {
  let failure: unknown;
  for (const delay of [0, ...RETRY_DELAYS_MS]) {
    if (delay) await sleep(delay);
    try {
      return await recordCompletion(id, data);
    } catch (err) {
      failure = err;
    }
  }
  void completeInBackground(id, data);
  const cause = databaseFault(failure)?.message ?? (failure instanceof Error ? failure.message : String(failure));
  const error = new SwitchboardError("unavailable", `The call finished (${data.status}) but could not be recorded yet: ${cause}. It will appear in history once the database takes it`, {
    callId: id,
    status: data.status,
    retryAfter: BACKGROUND_RETRY_MS / 1000,
  });
  // What failed, for callers that tell the database's faults from others' (lib/core/db/outage.ts).
  throw Object.assign(error, { cause: failure });
}

async function completeInBackground(id: string, data: CallCompletion): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await sleep(BACKGROUND_RETRY_MS, undefined, { ref: false });
    try {
      await recordCompletion(id, data);
      console.log(`call ${id} recorded after ${attempt} background attempt(s)`);
      return;
    } catch {
      // Still refused: try again; a stop marks it interrupted if it never lands.
    }
  }
}
