import type { CallCredential, CallDto, CallError, CallMethod, CallOrigin, CallProgress, CallStatus, CallSummary, CallTiming, TaskStatus } from "./index";
import { config } from "@/lib/core/config";
import type { Progress } from "@/lib/mcp/server";
import type { CallCompletion, PendingCall } from "./journal";
import type { CallRow, CallSummaryRow } from "./queries";

type Common = Omit<CallRow, "params" | "result" | "timing">;

/** Where the call's trace is shown (SWITCHBOARD_TRACE_LINK, `{traceId}` replaced), if that is set. */
const traceLink = (traceId: string) => config().traceLink?.replaceAll("{traceId}", traceId) ?? null;

/** A call's review for its DTO; a call just made has none. */
type Review = Pick<CallDto, "tags" | "starred" | "noteCount">;
const NO_REVIEW: Review = { tags: [], starred: false, noteCount: 0 };

function common(row: Common, review: Review): Omit<CallDto, "params" | "result" | "timing"> {
  return {
    id: row.id,
    serverId: row.serverId,
    serverName: row.server?.name ?? null,
    serverArchivedAt: row.server?.archivedAt?.toISOString() ?? null,
    sessionId: row.sessionId,
    userId: row.userId,
    userName: row.userName,
    method: row.method as CallMethod,
    name: row.name,
    error: row.error ? (JSON.parse(row.error) as CallError) : null,
    status: row.status as CallStatus,
    isError: row.isError,
    requestId: row.requestId,
    traceId: row.traceId,
    traceUrl: traceLink(row.traceId),
    rerunOfId: row.rerunOfId,
    origin: row.origin as CallOrigin,
    client: row.client,
    sentInvalid: row.sentInvalid,
    parentCallId: row.parentCallId,
    credential: row.credentialMode && (row.credentialUserId || row.credentialMode === "machine")
      ? { mode: row.credentialMode as CallCredential["mode"], userId: row.credentialUserId, userName: row.credentialUserName }
      : null,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    durationMs: row.durationMs,
    requestSize: row.requestSize,
    resultSize: row.resultSize,
    progress: row.progress ? (JSON.parse(row.progress) as CallProgress) : null,
    task: row.taskId
      ? {
          id: row.taskId,
          status: (row.taskStatus ?? "working") as TaskStatus,
          statusMessage: row.taskStatusMessage,
          pollIntervalMs: row.taskPollIntervalMs,
          updatedAt: row.taskUpdatedAt?.toISOString() ?? null,
        }
      : null,
    policyRuleId: row.policyRuleId ?? null,
    virtualServer: row.virtualServer ?? null,
    tags: review.tags,
    starred: review.starred,
    noteCount: review.noteCount,
  };
}

export function toCallDto(row: CallRow, review: Review = NO_REVIEW): CallDto {
  return {
    ...common(row, review),
    params: JSON.parse(row.params),
    result: row.result === null ? null : JSON.parse(row.result),
    timing: row.timing ? (JSON.parse(row.timing) as CallTiming) : null,
  };
}

export function toCallSummary(row: CallSummaryRow, review: Review = NO_REVIEW): CallSummary {
  return { ...common(row, review), paramsPreview: row.paramsPreview ?? "", resultPreview: row.resultPreview ?? null };
}

/** The row just written, as a read would return it: nothing is read back on the call path. */
export function completedRow(pending: PendingCall, completion: CallCompletion, { name, lastProgress }: { name: string; lastProgress: Progress | null }): CallRow {
  return {
    ...pending,
    ...completion,
    policyRuleId: pending.policyRuleId ?? null,
    virtualServer: pending.virtualServer ?? null,
    timing: completion.timing ?? null,
    progress: lastProgress ? JSON.stringify(lastProgress) : null,
    taskId: null,
    taskStatus: null,
    taskStatusMessage: null,
    taskPollIntervalMs: null,
    taskUpdatedAt: null,
    server: { name, archivedAt: null },
  };
}
