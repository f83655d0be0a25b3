import "server-only";
import { config } from "@/lib/core/config";
import { SwitchboardError } from "@/lib/core/errors";
import * as q from "./queries";
import { piece } from "@/lib/core/runtime";

const RECOUNT_MS = 10_000;
const counts = () => piece("callQuotaCounts", () => new Map<string, { at: number; stored: number }>());

/** Calls a workspace may keep in its history (SWITCHBOARD_MAX_CALLS; default 5,000,000). */
function maxCalls(): number {
  return config().maxCalls;
}

/**
 * 409 with the limit when the workspace's history is full; otherwise counts the call about to be
 * recorded. Counting a large history on every call is too slow for the call path, so the count is
 * re-read every few seconds and the calls recorded in between are added to it.
 */
export async function takeCallRoom(workspaceId: string): Promise<void> {
  let entry = counts().get(workspaceId);
  if (!entry || Date.now() - entry.at > RECOUNT_MS) {
    entry = { at: Date.now(), stored: await q.countCalls({ workspaceId }) };
    counts().set(workspaceId, entry);
  }
  const limit = maxCalls();
  if (entry.stored >= limit) {
    throw new SwitchboardError("conflict", `This workspace keeps at most ${limit} calls: delete old calls or shorten retention first (or raise SWITCHBOARD_MAX_CALLS)`, {
      quota: "calls",
      limit,
    });
  }
  entry.stored += 1;
}
