import "server-only";
import type { SnapshotDiffEntry } from "@/lib/domains/collections";
import type { CallMethod } from "@/lib/domains/calls";
import type { ReplayDto, ReplayItemDto, ReplayItemStatus, ReplaySource, ReplayStatus, ReplaySummary } from "./index";
import type { ReplayRow } from "./queries";

type SummaryRow = Omit<ReplayRow, "items">;

export function toReplaySummary(row: SummaryRow): ReplaySummary {
  return {
    id: row.id,
    status: row.status as ReplayStatus,
    serverId: row.serverId,
    serverName: row.serverName,
    source: JSON.parse(row.source) as ReplaySource,
    ignore: JSON.parse(row.ignore) as string[],
    total: row.total,
    same: row.same,
    different: row.different,
    errors: row.errors,
    startedBy: row.startedByName ? { id: row.startedById, name: row.startedByName } : null,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export function toReplayItemDto(item: ReplayRow["items"][number]): ReplayItemDto {
  return {
    index: item.index,
    callId: item.callId,
    replayCallId: item.replayCallId,
    method: item.method as CallMethod,
    name: item.name,
    status: item.status as ReplayItemStatus,
    diff: item.diff ? (JSON.parse(item.diff) as SnapshotDiffEntry[]) : null,
    error: item.error,
    durationMs: item.durationMs,
  };
}

export function toReplayDto(row: ReplayRow): ReplayDto {
  return { ...toReplaySummary(row), items: row.items.map(toReplayItemDto) };
}
