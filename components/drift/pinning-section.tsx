"use client";

import { useQueryClient } from "@tanstack/react-query";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useCan } from "@/lib/identity/auth/hooks";
import { driftKeys, visible, type DefinitionFinding, type PinningDto } from "@/lib/watch/drift";
import { useApproveSnapshot } from "@/lib/watch/drift/hooks";
import { useUpdateServer } from "@/lib/domains/servers/hooks";
import type { ServerDto } from "@/lib/domains/servers";

/** "Serve only approved definitions": the toggle, what is withheld, and the approval (admins). */
export function PinningSection({ server, pinning }: { server: ServerDto; pinning: PinningDto }) {
  const admin = useCan("admin").allowed;
  const update = useUpdateServer(server.id);
  const queryClient = useQueryClient();
  const approve = useApproveSnapshot(server.id);
  const { withheld } = pinning;
  return (
    <section aria-labelledby="pinning-title" className="flex flex-col gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="pinning-title" className="text-sm font-semibold">
          Pinned definitions
        </h2>
        <Badge tone={pinning.pinned ? (withheld.length ? "amber" : "green") : "neutral"} testId="pinning-status">
          {pinning.pinned ? (withheld.length ? `${withheld.length} withheld` : "pinned") : "not pinned"}
        </Badge>
      </div>
      <p className="text-sm text-muted">
        A pinned server serves hosts only the definitions an admin approved: a tool, prompt or resource whose description, schema or annotations
        changed (or that is new) is withheld, and calls to it are refused, until an admin approves the new snapshot here.
      </p>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" disabled={!admin || update.isPending} checked={pinning.pinned} onChange={(e) => update.mutate({ pinDefinitions: e.target.checked }, { onSuccess: () => void queryClient.invalidateQueries({ queryKey: driftKeys.all(server.id) }) })} />
        Serve only approved definitions
      </label>
      {update.error && <ErrorAlert error={update.error} title="Could not change the pinning" />}
      {withheld.length > 0 && (
        <>
          <ul aria-label="Withheld definitions" className="flex flex-col divide-y rounded-lg border">
            {withheld.map((w) => (
              <li key={`${w.kind}:${w.name}`} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
                <Badge tone="amber">{w.fields ? "changed" : "new"}</Badge>
                <span className="text-muted">{w.kind}</span>
                <code className="font-mono">
                  <bdi>{visible(w.name, 200)}</bdi>
                </code>
                {w.fields && <span className="text-muted">{w.fields.join(", ")}</span>}
              </li>
            ))}
          </ul>
          {approve.error && <ErrorAlert error={approve.error} title="Could not approve the definitions" />}
          {admin && pinning.latestSnapshotId ? (
            <div>
              <Button variant="primary" busy={approve.isPending} onClick={() => approve.mutate(pinning.latestSnapshotId!)}>
                Approve these definitions
              </Button>
            </div>
          ) : (
            <p className="text-xs text-muted">An admin approves new definitions.</p>
          )}
        </>
      )}
      {!admin && <p className="text-xs text-muted">Only admins pin a server or approve its definitions.</p>}
    </section>
  );
}

/** The scan's marks on a snapshot, shown as inert text: the server wrote it, hidden characters are spelled out. */
export function FindingList({ findings }: { findings: DefinitionFinding[] }) {
  if (findings.length === 0) return <p className="text-sm text-muted">The scan marked nothing in this snapshot.</p>;
  return (
    <ul aria-label="Scan findings" className="flex flex-col divide-y rounded-lg border">
      {findings.map((f, i) => (
        <li key={i} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
          <Badge tone="amber">{f.rule}</Badge>
          <code className="font-mono">
            <bdi>{visible(f.item, 200)}</bdi>
          </code>
          <bdi className="break-all">{visible(f.message, 2000)}</bdi>
        </li>
      ))}
    </ul>
  );
}
