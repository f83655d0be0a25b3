import "server-only";
import { z } from "zod";
import type { Principal } from "@/lib/core/access";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { toReplayDto, toReplaySummary } from "./dto";
import type { ReplayDto, ReplaySummary } from "./index";
import { toReplayJUnit } from "./junit";
import * as q from "./queries";

export { startReplay } from "./runner";

/** A replay with each call's outcome, in the order sent. */
export async function getReplay(principal: Principal, id: string): Promise<ReplayDto> {
  const row = await q.findReplay({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Replay");
  return toReplayDto(row);
}

/** The workspace's replays, newest first, without their items. */
export async function listReplays(principal: Principal, { limit = 50 }: { limit?: number } = {}): Promise<ReplaySummary[]> {
  return (await q.listReplays({ workspaceId: principal.workspaceId, limit })).map(toReplaySummary);
}

/** A replay as JUnit XML: a failure per different call, an error per call with nothing to compare. */
export async function getReplayJUnit(principal: Principal, id: string): Promise<string> {
  return toReplayJUnit(await getReplay(principal, id));
}

/** Ends as `interrupted` the running replays whose lease ran out (their instance stopped renewing it); how many. */
export async function reapExpiredReplays(): Promise<number> {
  return q.interruptReplays({ ids: await q.expiredReplays() });
}

/**
 * A replay body's field errors (a bad JSON pointer, no selection, too many calls) answer 422
 * `unprocessable` (the issue's contract), "<field path>: <message>" with zod's `issues`.
 */
export function unprocessableReplay(err: unknown): never {
  if (!(err instanceof z.ZodError)) throw err;
  const first = err.issues[0];
  const where = first?.path.length ? `${first.path.join(".")}: ` : "";
  throw new SwitchboardError("unprocessable", `${where}${first?.message ?? "Invalid replay"}`, { issues: err.issues });
}
