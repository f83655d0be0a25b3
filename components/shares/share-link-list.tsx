"use client";

import { useState } from "react";
import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { formatTime } from "@/components/calls/format";
import type { ShareDto } from "@/lib/shares";
import { useRevokeShare } from "@/lib/shares/hooks";

const STATUS_TONE = { active: "green", expired: "amber", revoked: "red" } as const;

/** Share links with who made them, expiry, views, Copy and Revoke (its creator, or an admin). */
export function ShareLinkList({ shares, showCall, empty }: { shares: ShareDto[]; showCall?: boolean; empty: string }) {
  const revoke = useRevokeShare();
  const [target, setTarget] = useState<ShareDto | null>(null);

  if (shares.length === 0) return <p className="text-xs text-muted">{empty}</p>;
  return (
    <>
      <table className="sb-table w-full border-collapse text-sm">
        <thead>
          <tr className="border-b text-left text-xs text-muted">
            {showCall && <th className="py-2 pr-3 font-medium">Call</th>}
            {showCall && <th className="py-2 pr-3 font-medium">Server</th>}
            <th className="py-2 pr-3 font-medium">Created by</th>
            <th className="py-2 pr-3 font-medium">Created</th>
            <th className="py-2 pr-3 font-medium">Expires</th>
            <th className="py-2 pr-3 font-medium">Views</th>
            <th className="py-2 pr-3 font-medium">Status</th>
            <th className="py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {shares.map((share) => (
            <tr key={share.id} className="border-b" data-testid="share-row">
              {showCall && (
                <td className="py-2 pr-3 font-mono text-xs">
                  <Link href={`/calls/${share.callId}`} className="text-accent hover:underline">
                    {share.call.name}
                  </Link>
                </td>
              )}
              {showCall && <td className="py-2 pr-3 text-xs">{share.call.serverName ?? "—"}</td>}
              <td data-label="Created by" className="py-2 pr-3 text-xs">{share.createdBy.name ?? "a former member"}</td>
              <td data-label="Created" className="py-2 pr-3 text-xs text-muted">{formatTime(share.createdAt, true)}</td>
              <td data-label="Expires" className="py-2 pr-3 text-xs text-muted">{share.expiresAt ? formatTime(share.expiresAt, true) : "never"}</td>
              <td data-label="Views" className="py-2 pr-3 text-xs text-muted" title={share.lastViewedAt ? `Last viewed ${formatTime(share.lastViewedAt)}` : undefined}>
                {share.viewCount}
              </td>
              <td className="py-2 pr-3">
                <Badge tone={STATUS_TONE[share.status]} title={share.revokedAt ? `Revoked ${formatTime(share.revokedAt)}` : undefined}>
                  {share.status}
                </Badge>
              </td>
              <td className="py-2 text-right whitespace-nowrap">
                {share.status === "active" && <CopyButton text={share.url} label="Copy link" />}
                {share.canRevoke && (
                  <Button size="sm" variant="ghost" className="text-red-600 dark:text-red-400" aria-label={`Revoke the link to ${share.call.name} created ${formatTime(share.createdAt, true)}`} onClick={() => setTarget(share)}>
                    Revoke
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
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
