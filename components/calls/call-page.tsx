"use client";

import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/disabled-reason";
import { JsonTree } from "@/components/ui/json-tree";
import { Skeleton } from "@/components/ui/spinner";
import { NotesPanel } from "@/components/reviews/notes-panel";
import { StarToggle } from "@/components/reviews/star-toggle";
import { TagEditor } from "@/components/reviews/tag-editor";
import { isApiError } from "@/lib/core/api-client";
import { useCall, useRerunCall } from "@/lib/domains/calls/hooks";
import { RoleGate } from "@/components/ui/role-gate";
import { CallDiff } from "./call-diff";
import { CopyAsMenu } from "./copy-as-menu";
import { compareUrl, compareWithUrl, editUrl } from "./urls";
import { ShareButton } from "@/components/shares/share-dialog";
import { AddToCollection } from "@/components/collections/add-to-collection";
import { CallNoAccess } from "./call-no-access";
import { CallMeta } from "./call-meta";
import { CallTimingView } from "./call-timing";
import { CallStatusBadge } from "./call-status-badge";
import { prettyJson } from "./format";
import { ResultView } from "./result-view";
import { TaskStatus } from "./task-status";

/** The permalink of one call: its request, its outcome, and "Run again" with a comparison. */
export function CallPage({ id }: { id: string }) {
  const call = useCall(id);
  const rerun = useRerunCall();
  const router = useRouter();
  const [rawParams, setRawParams] = useState(false);

  if (call.isPending) {
    return (
      <div className="flex flex-col gap-3 p-6">
        <Skeleton className="h-6 w-64" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (call.error) {
    return (
      <div className="p-6">
        {isApiError(call.error, "not_found") ? (
          <CallNoAccess id={id} />
        ) : (
          <ErrorAlert error={call.error} title="Could not load the call" />
        )}
      </div>
    );
  }

  const c = call.data;
  const next = rerun.data;
  return (
    <div className="flex flex-col gap-5 p-6">
      <div className="flex flex-wrap items-start gap-3">
        <StarToggle callId={c.id} starred={c.starred} className="mt-3 -ml-1" />
        <div className="min-w-0 flex-1">
          <p className="font-mono text-xs text-muted">{c.method}</p>
          <h1 className="flex items-center gap-2 text-lg font-semibold tracking-tight">
            <span className="truncate font-mono">{c.name}</span>
            <CallStatusBadge status={c.status} isError={c.isError} testId="call-header-status" />
            {c.serverArchivedAt && <Badge tone="amber">server archived</Badge>}
          </h1>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <ShareButton callId={c.id} />
          <CopyAsMenu call={c} />
          <AddToCollection call={c} />
          <Link href={compareWithUrl(c)} className={buttonClasses()}>
            Compare with…
          </Link>
          {c.method !== "resources/read" && !c.serverArchivedAt && (
            <RoleGate action="run">
              <Button onClick={() => router.push(editUrl(c))}>Edit and run…</Button>
            </RoleGate>
          )}
          {c.serverArchivedAt ? (
            <DisabledReason reason="Its server is archived: restore the server to run this again">
              <Button variant="primary">Run again</Button>
            </DisabledReason>
          ) : (
            <RoleGate action="rerun">
              <Button variant="primary" busy={rerun.isPending} disabled={c.status === "pending"} onClick={() => rerun.mutate(c.id)}>
                Run again
              </Button>
            </RoleGate>
          )}
        </div>
      </div>
      {c.rerunOfId && (
        <p className="-mt-3 text-xs text-muted">
          A re-run of{" "}
          <Link href={`/calls/${c.rerunOfId}`} className="text-accent hover:underline">
            an earlier call
          </Link>
          {" · "}
          <Link href={compareUrl(c.rerunOfId, c.id)} className="text-accent hover:underline">
            Compare with it
          </Link>
        </p>
      )}

      {c.serverArchivedAt && (
        <Alert tone="info" title="Server archived">
          {c.serverName ?? "This call's server"} was archived; this call stays readable. An admin can restore the server from its page to run calls on it again.
        </Alert>
      )}

      <ErrorAlert error={rerun.error} title="Could not run it again" />
      <TaskStatus call={c} />

      <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <section aria-label="Details" className="flex flex-col gap-2">
          <h2 className="text-sm font-semibold">Details</h2>
          <CallMeta call={c} />
          {c.status !== "pending" && (
            <section aria-labelledby="call-time" className="mt-3 flex flex-col gap-2">
              <h3 id="call-time" className="text-sm font-semibold">
                Time
              </h3>
              <CallTimingView timing={c.timing} />
            </section>
          )}
        </section>
        <section aria-label="Request" className="flex min-w-0 flex-col gap-2">
          <div className="flex items-center justify-between">
            <h2 className="text-sm font-semibold">Request</h2>
            <Button size="sm" variant="ghost" aria-pressed={rawParams} onClick={() => setRawParams(!rawParams)}>
              Raw params
            </Button>
          </div>
          <div className="max-h-80 overflow-auto rounded-md border p-2">
            {rawParams ? <pre className="font-mono text-xs">{prettyJson(c.params)}</pre> : <JsonTree value={c.params} label="Params" />}
          </div>
        </section>
      </div>

      {next ? (
        <section aria-label="Comparison" className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-sm font-semibold">Run again: before and after</h2>
            <Link href={`/calls/${next.id}`} className="text-sm text-accent hover:underline">
              Open the new call
            </Link>
          </div>
          <div className="grid grid-cols-1 gap-3 xl:grid-cols-2">
            <ResultView call={c} title="Before" showPermalink={false} />
            <ResultView call={next} title="After" />
          </div>
          <CallDiff before={c} after={next} />
        </section>
      ) : (
        <ResultView call={c} showPermalink={false} />
      )}

      <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <section aria-label="Tags" className="flex flex-col gap-2">
          <h2 className="text-sm font-semibold">Tags</h2>
          <TagEditor callId={c.id} tags={c.tags} />
        </section>
        <NotesPanel callId={c.id} />
      </div>
    </div>
  );
}

