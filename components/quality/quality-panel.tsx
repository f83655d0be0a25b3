"use client";

import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { formatTime } from "@/components/calls/format";
import { ErrorAlert } from "@/components/ui/alert";
import { isApiError } from "@/lib/core/api-client";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { RoleGate } from "@/components/ui/role-gate";
import { Skeleton } from "@/components/ui/spinner";
import type { ServerDto } from "@/lib/domains/servers";
import { useConnectServer } from "@/lib/domains/servers/hooks";
import type { LintReport } from "@/lib/domains/quality";
import { qualityKeys, useServerLint } from "@/lib/domains/quality/hooks";
import { FindingsList } from "./findings-list";
import { RulesList } from "./rules-list";
import { changeSince, chronological, describeChange } from "./token-change";
import { TokenHistory } from "./token-history";
import { TokenTable } from "./token-table";

/** A server's Quality tab: the lint of a snapshot's definitions and their token cost, with its history. */
export function QualityPanel({ server }: { server: ServerDto }) {
  // null: the latest snapshot.
  const [snapshotId, setSnapshotId] = useState<string | null>(null);
  const lint = useServerLint(server.id, snapshotId);

  if (lint.isPending) {
    return (
      <div className="flex flex-col gap-3 p-4 sm:p-6">
        <Skeleton className="h-16 w-full max-w-xl" />
        <Skeleton className="h-48 w-full" />
      </div>
    );
  }
  if (isApiError(lint.error, "conflict")) return <NoSnapshot server={server} />;
  if (lint.error) {
    return (
      <div className="p-4 sm:p-6">
        <ErrorAlert error={lint.error} title="Could not lint the server" />
      </div>
    );
  }
  const report = lint.data;
  if (report.snapshotId === null) return <NoSnapshot server={server} />;
  const latest = snapshotId === null || snapshotId === chronological(report.history).at(-1)?.snapshotId;
  return (
    <div className="flex max-w-5xl min-w-0 flex-col gap-6 p-4 sm:p-6">
      <Summary report={report} latest={latest} onLatest={() => setSnapshotId(null)} />
      <section aria-labelledby="quality-findings" className="flex flex-col gap-2">
        <h2 id="quality-findings" className="text-sm font-semibold">
          Findings
        </h2>
        <p className="text-sm text-muted">What hosts may refuse or models misread: descriptions, parameter types, schema keywords, names and annotations.</p>
        <FindingsList key={report.snapshotId} findings={report.findings} />
        <RulesList />
      </section>
      <section aria-labelledby="quality-tokens" className="flex flex-col gap-2">
        <h2 id="quality-tokens" className="text-sm font-semibold">
          Token cost by definition
        </h2>
        <p className="text-sm text-muted">What each definition costs in a model’s context, as a host sends it, largest first.</p>
        <TokenTable items={report.tokens.items} total={report.tokens.total} />
      </section>
      <section aria-labelledby="quality-history" className="flex flex-col gap-2">
        <h2 id="quality-history" className="text-sm font-semibold">
          Token history
        </h2>
        <TokenHistory history={report.history} shown={report.snapshotId} onShow={setSnapshotId} />
      </section>
    </div>
  );
}

function Summary({ report, latest, onLatest }: { report: LintReport; latest: boolean; onLatest: () => void }) {
  const change = changeSince(report.history, report.snapshotId);
  const errors = report.findings.filter((f) => f.severity === "error").length;
  const warnings = report.findings.filter((f) => f.severity === "warning").length;
  return (
    <section aria-labelledby="quality-summary" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 id="quality-summary" className="text-sm font-semibold">
          {latest ? "Latest snapshot" : "Earlier snapshot"}
        </h2>
        <span className="text-xs text-muted">taken {formatTime(report.takenAt)}</span>
        {!latest && (
          <button type="button" className="text-xs text-accent underline-offset-2 hover:underline" onClick={onLatest}>
            Show the latest
          </button>
        )}
      </div>
      <dl className="grid grid-cols-1 gap-2 sm:grid-cols-3">
        <Figure label="Token total" testId="quality-total" value={report.tokens.total.toLocaleString("en-US")} detail={`counted with ${report.tokens.tokenizer}`} />
        <Figure
          label="Since the previous snapshot"
          testId="quality-change"
          value={change ? describeChange(change) : "first snapshot"}
          detail={change ? `from ${change.previous.total.toLocaleString("en-US")} tokens on ${formatTime(change.previous.takenAt)}` : "nothing to compare with yet"}
        />
        <Figure
          label="Findings"
          testId="quality-findings-count"
          value={`${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`}
          detail={`${report.findings.length - errors - warnings} info`}
        />
      </dl>
    </section>
  );
}

function Figure({ label, value, detail, testId }: { label: string; value: string; detail: string; testId: string }) {
  return (
    <div className="flex min-w-0 flex-col rounded-lg border bg-raised px-3 py-2">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="text-xl font-semibold break-words tabular-nums" data-testid={testId}>
        {value}
      </dd>
      <dd className="text-xs text-muted">{detail}</dd>
    </div>
  );
}

function NoSnapshot({ server }: { server: ServerDto }) {
  const queryClient = useQueryClient();
  const connect = useConnectServer(server.id);
  const canConnect = !server.archivedAt && server.status !== "waiting" && server.status !== "offline";
  return (
    <div className="flex flex-col gap-3 p-4 sm:p-6">
      <EmptyState
        title="No snapshot yet"
        action={
          canConnect && (
            <RoleGate action="connect">
              <Button variant="primary" busy={connect.isPending} onClick={() => connect.mutate(undefined, { onSuccess: () => void queryClient.invalidateQueries({ queryKey: qualityKeys.all(server.id) }) })}>
                Connect
              </Button>
            </RoleGate>
          )
        }
      >
        Connect it to lint its definitions: a snapshot of its tools, prompts and resources is kept at every connect, and its token cost is counted from it.
      </EmptyState>
      <ErrorAlert error={connect.error} title="Could not connect" />
    </div>
  );
}
