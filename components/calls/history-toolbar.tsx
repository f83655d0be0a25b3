"use client";

import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { apiUrl } from "@/lib/core/api-client";
import { useWorkspaceId } from "@/lib/team/workspaces/hooks";
import type { CallFilters } from "@/lib/domains/calls/hooks";
import { NewCollectionFromCalls } from "@/components/collections/new-from-calls";
import { StartReplayButton } from "@/components/replays/start-replay";
import { MakeMockButton } from "@/components/mocks/make-mock-dialog";
import { HistoryViews } from "./history-views";
import { compareUrl } from "./urls";

/** Above the history: whose calls, compare the two ticked calls, make a collection of the ticked calls, replay them (or what the filters show) against a server, export what the filters show. */
export function HistoryToolbar({ filters, selected, onClear }: { filters: CallFilters; selected: string[]; onClear: () => void }) {
  const ready = selected.length === 2;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <HistoryViews filters={filters} />
      <span className="text-xs text-muted" aria-live="polite">
        {selected.length === 0
          ? "Tick two calls to compare them, or any to make a collection."
          : ready
            ? "Two calls ticked."
            : selected.length === 1
              ? "One call ticked; tick another to compare."
              : `${selected.length} calls ticked.`}
      </span>
      {ready ? (
        <Link href={compareUrl(selected[0]!, selected[1]!)} className={buttonClasses("primary", "sm")}>
          Compare
        </Link>
      ) : (
        <button type="button" disabled className={buttonClasses("secondary", "sm")}>
          Compare
        </button>
      )}
      <NewCollectionFromCalls callIds={selected} />
      <StartReplayButton selection={selected.length ? { callIds: selected } : { filter: filters }} label={selected.length ? "Replay ticked…" : "Replay these…"} />
      <MakeMockButton
        selection={selected.length ? { callIds: selected } : { filter: filters }}
        what={selected.length ? `the ${selected.length} ticked call${selected.length === 1 ? "" : "s"}` : Object.values(filters).some(Boolean) ? "the calls the filters show" : "every call in history (narrow it to one server with the filters)"}
        defaultName="history-mock"
        label={selected.length ? "Mock ticked…" : "Make a mock…"}
      />
      {selected.length > 0 && (
        <button type="button" onClick={onClear} className={buttonClasses("ghost", "sm")}>
          Clear selection
        </button>
      )}
      <span className="ml-auto flex items-center gap-2 text-xs text-muted">
        Export {Object.values(filters).some(Boolean) ? "these calls" : "all calls"}:
        <ExportLink filters={filters} format="ndjson" />
        <ExportLink filters={filters} format="csv" />
      </span>
    </div>
  );
}

function ExportLink({ filters, format }: { filters: CallFilters; format: "ndjson" | "csv" }) {
  // A plain link: the browser streams the attachment to disk; the workspace rides in the query.
  const href = apiUrl("/calls/export", { ...filters, format, workspace: useWorkspaceId() });
  return (
    <a href={href} download className={buttonClasses("secondary", "sm")}>
      {format === "ndjson" ? "NDJSON" : "CSV"}
    </a>
  );
}
