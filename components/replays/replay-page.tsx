"use client";

import Link from "next/link";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/spinner";
import { formatDuration, formatTime } from "@/components/calls/format";
import { compareUrl } from "@/components/calls/urls";
import { SnapshotDiff } from "@/components/collections/run-step-row";
import { apiUrl, isApiError } from "@/lib/core/api-client";
import { ALWAYS_IGNORED, type ReplayDto, type ReplayItemDto, type ReplaySource } from "@/lib/domains/replays";
import { useReplay } from "@/lib/domains/replays/hooks";
import { useWorkspaceId } from "@/lib/team/workspaces/hooks";
import { ReplayStatusBadge } from "./replay-status-badge";

/** A replay: its progress as it goes (the live channel), and per call same, different (with the differences) or error. */
export function ReplayPage({ id }: { id: string }) {
  const replay = useReplay(id);
  if (replay.isPending) {
    return (
      <div className="flex flex-col gap-3 p-6">
        <Skeleton className="h-6 w-64" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (replay.isError) {
    return (
      <div className="p-6">
        {isApiError(replay.error, "not_found") ? <Alert title="Replay not found">It belongs to another workspace, or it was deleted.</Alert> : <ErrorAlert error={replay.error} title="Could not load the replay" />}
      </div>
    );
  }
  return <ReplayView replay={replay.data} />;
}

function sourceText(source: ReplaySource): string {
  if ("callIds" in source) return `${source.callIds.length} ticked call${source.callIds.length === 1 ? "" : "s"}`;
  if ("mockId" in source) return "a mock's recordings";
  const shown = Object.entries(source.filter).map(([k, v]) => `${k}=${String(v)}`);
  return shown.length ? `history filtered by ${shown.join(", ")}` : "all of people's history";
}

function ReplayView({ replay }: { replay: ReplayDto }) {
  const workspace = useWorkspaceId();
  const done = replay.same + replay.different + replay.errors;
  const elapsed = replay.finishedAt ? Date.parse(replay.finishedAt) - Date.parse(replay.startedAt) : null;
  return (
    <div className="flex flex-col gap-5 p-4 sm:p-6">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="text-xs text-muted">
            <Link href="/replays" className="text-accent underline underline-offset-2">
              Replays
            </Link>
          </p>
          <h1 className="flex flex-wrap items-center gap-2 text-lg font-semibold tracking-tight">
            <span className="break-all">Replay on {replay.serverName}</span>
            <ReplayStatusBadge status={replay.status} testId="replay-header-status" />
          </h1>
          <p className="text-xs text-muted">
            {formatTime(replay.startedAt, true)} · {sourceText(replay.source)}
            {replay.startedBy ? ` · by ${replay.startedBy.name}` : ""}
          </p>
        </div>
        <a href={apiUrl(`/replays/${encodeURIComponent(replay.id)}`, { format: "junit", workspace })} download={`replay-${replay.id}.xml`} className={buttonClasses("secondary", "sm")}>
          JUnit XML
        </a>
      </div>
      <p aria-live="polite" data-testid="replay-summary" className="text-sm">
        {replay.status === "running" ? `Replaying: ${done} of ${replay.total} compared. ` : ""}
        {replay.same} same, {replay.different} different, {replay.errors} errors of {replay.total} calls
        {elapsed !== null ? ` in ${formatDuration(elapsed)}` : ""}
        {replay.status === "interrupted" ? " · interrupted: the console instance running it stopped; calls not reached stay pending" : ""}
      </p>
      <p className="text-xs text-muted">
        Ignoring <span className="font-mono break-all">{[...replay.ignore, ...ALWAYS_IGNORED].join(", ")}</span> (the last: the server&apos;s identity, always)
      </p>
      <ol aria-label="Calls of the replay" className="flex flex-col divide-y rounded-md border">
        {replay.items.map((item) => (
          <ReplayItemRow key={item.index} item={item} />
        ))}
      </ol>
    </div>
  );
}

function ReplayItemRow({ item }: { item: ReplayItemDto }) {
  const n = item.index + 1;
  return (
    <li data-testid="replay-item" aria-label={`Call ${n}: ${item.name}, ${item.status}`} className="flex flex-col gap-2 px-3 py-2">
      <div className="flex flex-wrap items-center gap-2">
        <span className="w-6 text-right text-xs text-muted tabular-nums">{n}.</span>
        <span className="min-w-0 flex-1 text-sm font-medium break-all">
          <span className="text-xs font-normal text-muted">{item.method} </span>
          {item.name}
        </span>
        <ReplayStatusBadge status={item.status} testId="replay-item-status" />
        <span className="w-16 text-right text-xs text-muted tabular-nums">{item.durationMs === null ? "" : formatDuration(item.durationMs)}</span>
        <span className="flex gap-3 text-xs">
          {!item.callId.includes("#") && (
            <Link href={`/calls/${item.callId}`} className="text-accent hover:underline" aria-label={`Open the recorded call ${n}`}>
              Recorded
            </Link>
          )}
          {item.replayCallId && (
            <Link href={`/calls/${item.replayCallId}`} className="text-accent hover:underline" aria-label={`Open the replayed call ${n}`}>
              Replayed
            </Link>
          )}
          {item.replayCallId && !item.callId.includes("#") && item.status === "different" && (
            <Link href={compareUrl(item.callId, item.replayCallId)} className="text-accent hover:underline" aria-label={`Compare the two calls of ${n} side by side`}>
              Compare
            </Link>
          )}
        </span>
      </div>
      {item.error && <p className="pl-8 text-sm text-amber-800 dark:text-amber-300">{item.error}</p>}
      {item.diff && item.diff.length > 0 && (
        <div className="pl-8" aria-label={`Differences of call ${n}`} role="group">
          <SnapshotDiff entries={item.diff} />
        </div>
      )}
    </li>
  );
}
