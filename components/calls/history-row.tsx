import Link from "next/link";
import { StarToggle } from "@/components/reviews/star-toggle";
import { TagChips } from "@/components/reviews/tag-chips";
import { Badge } from "@/components/ui/badge";
import type { CallSummary } from "@/lib/domains/calls";
import { CallStatusBadge } from "./call-status-badge";
import { formatDuration, formatTime } from "./format";

// Narrow screens wrap the cells into lines instead of columns.
export const COLUMNS = "flex flex-wrap gap-x-2 gap-y-0.5 md:grid md:grid-cols-[8.5rem_8rem_6.5rem_minmax(6rem,1fr)_5.5rem_4.5rem_6rem] md:gap-x-3";

/**
 * One call in history: a checkbox (when picking calls to compare or collect), the caller's star, then a link to
 * its permalink with previews, tags and notes.
 */
export function HistoryRow({ call, selected, onToggle }: { call: CallSummary; selected?: boolean; onToggle?: (id: string) => void }) {
  return (
    <li data-testid="history-row" className="flex items-start hover:bg-hover">
      {onToggle && (
        <input
          type="checkbox"
          aria-label={`Select ${call.name} at ${formatTime(call.startedAt, true)}`}
          checked={!!selected}
          onChange={() => onToggle(call.id)}
          className="mt-2 ml-2 shrink-0"
        />
      )}
      <StarToggle callId={call.id} starred={call.starred} className="mt-1 ml-1.5" />
      <Link href={`/calls/${call.id}`} className="block min-w-0 flex-1 py-1.5 pr-3 pl-1.5 focus-visible:bg-hover">
        <div className={`${COLUMNS} items-center text-sm`}>
          <time dateTime={call.startedAt} className="text-xs text-muted tabular-nums">
            {formatTime(call.startedAt, true)}
          </time>
          <span className="flex min-w-0 items-center gap-1">
            <span className="truncate">{call.serverName ?? "(deleted)"}</span>
            {call.serverArchivedAt && (
              <Badge tone="amber" testId="history-archived" title="Server archived: the call stays readable">
                archived
              </Badge>
            )}
          </span>
          <span className="truncate font-mono text-xs text-muted">{call.method}</span>
          <span className="flex min-w-0 items-center gap-1.5">
            <span className="truncate font-mono text-xs font-medium">{call.name}</span>
            {call.origin !== "user" && (
              <Badge tone="violet" testId="history-origin" title={call.parentCallId ? `Made from call ${call.parentCallId}` : undefined}>
                {call.origin}
              </Badge>
            )}
            {call.sentInvalid && (
              <Badge tone="amber" testId="history-sent-invalid" title="Sent anyway: the arguments failed the tool's input schema">
                invalid args
              </Badge>
            )}
          </span>
          <span>
            <CallStatusBadge status={call.status} isError={call.isError} testId="history-status" />
          </span>
          <span className="text-right text-xs text-muted tabular-nums">{formatDuration(call.durationMs)}</span>
          <span className="truncate text-xs text-muted">{call.userName ?? "token"}</span>
        </div>
        <div className="mt-0.5 flex items-center gap-3 truncate font-mono text-[11px] text-muted">
          {(call.tags.length > 0 || call.noteCount > 0) && (
            <span className="flex shrink-0 items-center gap-1.5">
              <TagChips tags={call.tags} linked={false} />
              {call.noteCount > 0 && (
                <Badge testId="history-notes" title={`${call.noteCount} note${call.noteCount === 1 ? "" : "s"}`}>
                  {call.noteCount} note{call.noteCount === 1 ? "" : "s"}
                </Badge>
              )}
            </span>
          )}
          <span className="max-w-[45%] truncate" title={call.paramsPreview}>
            → {call.paramsPreview}
          </span>
          {call.resultPreview && (
            <span className="min-w-0 flex-1 truncate" title={call.resultPreview}>
              ← {call.resultPreview}
            </span>
          )}
        </div>
      </Link>
      {call.rerunOfId && (
        <Link
          href={`/calls/${call.rerunOfId}`}
          data-testid="history-rerun-of"
          title="This call ran an earlier one again: open the original"
          className="mt-1.5 mr-2 shrink-0 rounded border px-1.5 text-[11px] text-muted hover:text-accent"
        >
          ↺ original
        </Link>
      )}
    </li>
  );
}
