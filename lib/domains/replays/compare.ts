import "server-only";
import type { CallDto } from "@/lib/domains/calls";
import type { SnapshotDiffEntry } from "@/lib/domains/collections";
import { snapshotDiff } from "@/lib/domains/collections/server";
import type { ReplayItemStatus } from "./index";

const IDENTITY = "io.modelcontextprotocol/serverInfo";

/**
 * The answer without the server's identity, which the modern era puts in every result's `_meta`
 * (a new version differs there on every call, and a recording from an older era has none: both
 * are why it is replayed, not findings). An `_meta` left empty goes too.
 */
function withoutIdentity<T extends object>(answer: T): T {
  const meta = "result" in answer ? (answer.result as { _meta?: unknown } | null)?._meta : undefined;
  if (!meta || typeof meta !== "object" || !(IDENTITY in meta)) return answer;
  const { [IDENTITY]: _identity, ...rest } = meta as Record<string, unknown>;
  const { _meta: _dropped, ...result } = (answer as { result: Record<string, unknown> }).result;
  return { ...answer, result: Object.keys(rest).length ? { ...result, _meta: rest } : result };
}

/** What a call recorded or received, as history shows it (secrets masked). */
export type Outcome = Pick<CallDto, "status" | "isError" | "result" | "error">;

/**
 * The server's answer to compare: `{ result }` (an `isError` result included: it is data) or
 * `{ error: { code, message } }` for a JSON-RPC error; null when the call got no answer (timeout,
 * connection, cancelled, interrupted, refused by a rule, still pending).
 */
export function answerOf(call: Outcome): { result: unknown } | { error: { code: number | null; message: string } } | null {
  if (call.status === "ok" || (call.status === "error" && call.isError)) return { result: call.result ?? null };
  if (call.status === "error" && call.error?.kind === "protocol") return { error: { code: call.error.code ?? null, message: call.error.message } };
  return null;
}

const noAnswer = (call: Outcome) => `${call.status}${call.error?.message ? `: ${call.error.message}` : ""}`;

/** Why a recorded call cannot be replayed (it got no answer to compare with), or null. */
export function unanswered(recorded: Outcome): string | null {
  return answerOf(recorded) ? null : `The recorded call got no answer to compare with (${noAnswer(recorded)})`;
}

/**
 * The replayed call against the recorded one: "same" or "different" (with the differences, as JSON
 * pointers into the answer: a result that became a JSON-RPC error is `/result` removed and `/error`
 * added), "error" when the replayed call got no answer.
 */
export function compareOutcomes(recorded: Outcome, replayed: Outcome, ignore: string[]): { status: ReplayItemStatus; diff: SnapshotDiffEntry[] | null; error: string | null } {
  const before = answerOf(recorded);
  const after = answerOf(replayed);
  if (!before) return { status: "error", diff: null, error: unanswered(recorded) };
  if (!after) return { status: "error", diff: null, error: `The replayed call got no answer (${noAnswer(replayed)})` };
  const diff = snapshotDiff(withoutIdentity(before), withoutIdentity(after), ignore);
  return diff.length ? { status: "different", diff, error: null } : { status: "same", diff: null, error: null };
}
