import type { SnapshotDiffEntry } from "@/lib/domains/collections";
import type { CallMethod } from "@/lib/domains/calls";
import type { ListCallsQuery } from "@/lib/domains/calls";
export type { StartReplay, ListReplaysQuery } from "./schemas";

/** At most this many calls in one replay: a selection past it is refused (narrow the filter). */
export const MAX_REPLAY_CALLS = 500;

/** Left out of the comparison: the server's identity, which the modern era puts in every result's `_meta`. */
export const ALWAYS_IGNORED = ["/result/_meta/io.modelcontextprotocol~1serverInfo"];

/** "passed": every call answered the same; "failed": a difference or an error; "interrupted": its console instance stopped. */
export const REPLAY_STATUSES = ["running", "passed", "failed", "interrupted"] as const;
export type ReplayStatus = (typeof REPLAY_STATUSES)[number];

/**
 * "same"/"different": the target answered (a result, an `isError` result or a JSON-RPC error) and
 * the answer was compared with the recorded one; "error": there was nothing to compare (the
 * recorded call or the replayed one got no answer: timeout, connection, refused by a rule, …).
 */
export const REPLAY_ITEM_STATUSES = ["pending", "same", "different", "error"] as const;
export type ReplayItemStatus = (typeof REPLAY_ITEM_STATUSES)[number];

/** What a replay re-sent: ticked calls, the calls a history filter selected, or a mock's recordings. */
export type ReplaySource = { callIds: string[] } | { filter: Omit<Partial<ListCallsQuery>, "cursor" | "limit"> } | { mockId: string };

export interface ReplayItemDto {
  index: number;
  /** The recorded call (or, from a mock, the recording's call id or `<mockId>#<index>`). */
  callId: string;
  /** The call the replay made (origin "replay"); null when none was sent. */
  replayCallId: string | null;
  method: CallMethod;
  /** As history shows it (secrets masked). */
  name: string;
  status: ReplayItemStatus;
  /** Where the new answer differs from the recorded one, as JSON pointers into `{ result }` or `{ error }`; null unless different. */
  diff: SnapshotDiffEntry[] | null;
  error: string | null;
  durationMs: number | null;
}

export interface ReplaySummary {
  id: string;
  status: ReplayStatus;
  serverId: string;
  serverName: string;
  source: ReplaySource;
  ignore: string[];
  total: number;
  same: number;
  different: number;
  errors: number;
  startedBy: { id: string | null; name: string } | null;
  startedAt: string;
  finishedAt: string | null;
}

export interface ReplayDto extends ReplaySummary {
  items: ReplayItemDto[];
}

export const replayKeys = {
  all: () => ["replays"] as const,
  list: () => ["replays", "list"] as const,
  detail: (id: string) => ["replays", "detail", id] as const,
};
