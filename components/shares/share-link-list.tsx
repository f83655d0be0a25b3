"use client";

import { useState } from "react";
import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { formatTime } from "@/components/calls/format";
import type { ShareDto } from "@/lib/domains/shares";
import { useRevokeShare } from "@/lib/domains/shares/hooks";
import { Cell, Row, Table } from "@/components/ui/table";

const STATUS_TONE = { active: "green", expired: "amber", revoked: "red" } as const;

/** What a link shows: the call's name, or the run's collection and when it ran. */
function sharedName(share: ShareDto): string {
  if (share.run) return `${share.run.collectionName} (run ${formatTime(share.run.startedAt, true)})`;
  return share.call?.name ?? "—";
}

/** Share links with who made them, expiry, views, Copy and Revoke (its creator, or an admin). */
export function ShareLinkList({ shares, showCall, empty }: { shares: ShareDto[]; showCall?: boolean; empty: string }) {
  const revoke = useRevokeShare();
  const [target, setTarget] = useState<ShareDto | null>(null);

  if (shares.length === 0) return <p className="text-xs text-muted">{empty}</p>;
  return (
    <>
      <Table columns={[showCall && "Call", showCall && "Server", "Created by", "Created", "Expires", "Views", "Status", { name: "Actions", hidden: true }]}>
          {shares.map((share) => (
            <Row key={share.id} data-testid="share-row">
              {showCall && (
                <Cell className="font-mono text-xs">
                  <Link href={share.runId ? `/runs/${share.runId}` : `/calls/${share.callId}`} className="text-accent hover:underline">
                    {sharedName(share)}
                  </Link>
                </Cell>
              )}
              {showCall && <Cell className="text-xs">{share.run ? "collection run" : (share.call?.serverName ?? "—")}</Cell>}
              <Cell label="Created by" className="text-xs">{share.createdBy.name ?? "a former member"}</Cell>
              <Cell label="Created" className="text-xs text-muted">{formatTime(share.createdAt, true)}</Cell>
              <Cell label="Expires" className="text-xs text-muted">{share.expiresAt ? formatTime(share.expiresAt, true) : "never"}</Cell>
              <Cell label="Views" className="text-xs text-muted" title={share.lastViewedAt ? `Last viewed ${formatTime(share.lastViewedAt)}` : undefined}>
                {share.viewCount}
              </Cell>
              <Cell>
                <Badge tone={STATUS_TONE[share.status]} title={share.revokedAt ? `Revoked ${formatTime(share.revokedAt)}` : undefined}>
                  {share.status}
                </Badge>
              </Cell>
              <Cell actions className="text-right whitespace-nowrap">
                {share.status === "active" && <CopyButton text={share.url} label="Copy link" />}
                {share.canRevoke && (
                  <Button size="sm" variant="ghost" className="text-red-600 dark:text-red-400" aria-label={`Revoke the link to ${sharedName(share)} created ${formatTime(share.createdAt, true)}`} onClick={() => setTarget(share)}>
                    Revoke
                  </Button>
                )}
              </Cell>
            </Row>
          ))}
      </Table>
      <ConfirmDialog
        open={target !== null}
        onClose={() => {
          setTarget(null);
          revoke.reset();
        }}
        title="Revoke this share link?"
        description="Anyone opening it from now on gets a “no longer available” page. This cannot be undone."
        confirmLabel="Revoke link"
        busy={revoke.isPending}
        error={<ErrorAlert error={revoke.error} />}
        onConfirm={() => target && revoke.mutate(target.id, { onSuccess: () => setTarget(null) })}
      />
    </>
  );
}
