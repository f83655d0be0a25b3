import { piece } from "@/lib/core/runtime";
import { appendCallSummaries, sinksStreamingCalls } from "./queries";

// Run on the call path (lib/domains/calls' journal): no "server-only", and no query per call
// unless the workspace streams calls (one cached read per workspace every few seconds).

const TTL_MS = 5000;
/** Pending calls remembered at most (a completion never recorded here is dropped with the oldest). */
const MAX_PENDING = 10_000;

interface Flag {
  at: number;
  streams: boolean;
  loading?: Promise<void>;
}

const flags = () => piece("callStreaming", () => new Map<string, Flag>());
const pending = () => piece("streamedCalls", () => new Map<string, CallStart>());

/** What a call summary says, from the pending row (arguments and results never). */
export interface CallStart {
  id: string;
  workspaceId: string;
  serverId: string;
  method: string;
  name: string | null;
  origin: string;
  userId: string | null;
  userName: string | null;
  startedAt: Date;
}

/** Whether the workspace streams calls, as last read (refreshed in the background when stale). */
function streams(workspaceId: string): boolean {
  const flag = flags().get(workspaceId);
  if (flag && Date.now() - flag.at < TTL_MS) return flag.streams;
  if (!flag?.loading) {
    const next: Flag = { at: flag?.at ?? 0, streams: flag?.streams ?? false };
    next.loading = sinksStreamingCalls({ workspaceId }).then(
      (n) => void flags().set(workspaceId, { at: Date.now(), streams: n > 0 }),
      () => void flags().delete(workspaceId),
    );
    flags().set(workspaceId, next);
  }
  return flag?.streams ?? false;
}

/** Reads the flag now (a sink was just created or changed on this instance). */
export async function forgetCallStreaming(workspaceId: string): Promise<void> {
  flags().delete(workspaceId);
  streams(workspaceId);
  await flags().get(workspaceId)?.loading;
}

/** Remembers a pending call of a workspace that streams calls, for its summary at completion. */
export function noteCallStarted(call: CallStart): void {
  if (!streams(call.workspaceId)) return;
  const map = pending();
  if (map.size >= MAX_PENDING) map.delete(map.keys().next().value!);
  map.set(call.id, call);
}

/** Appends the summary of a finished call to its workspace's outbox (never fails the call). */
export async function noteCallFinished(id: string, end: { status: string; durationMs: number | null }, start?: CallStart): Promise<void> {
  const call = start ?? pending().get(id);
  pending().delete(id);
  if (!call || (start && !streams(call.workspaceId))) return;
  const summary = {
    at: new Date().toISOString(),
    callId: call.id,
    server: call.serverId,
    method: call.method,
    name: call.name,
    status: end.status,
    durationMs: end.durationMs,
    origin: call.origin,
    user: { id: call.userId, name: call.userName },
    startedAt: call.startedAt.toISOString(),
    path: `/calls/${call.id}`,
  };
  await appendCallSummaries({ workspaceId: call.workspaceId, summaries: [summary] }).catch((err: unknown) => console.error("[audit] could not stream call", id, err));
}

/** Hands the call journal (lib/domains/calls) its hook: lib/start calls it at start. */
export function installCallStream(): void {
  piece("callStream", () => ({ started: noteCallStarted, finished: (id: string, end: { status: string; durationMs: number | null }, start?: CallStart) => noteCallFinished(id, end, start) }));
}
