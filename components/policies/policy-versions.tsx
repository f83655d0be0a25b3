"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RoleGate } from "@/components/ui/role-gate";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import { formatTime } from "@/components/calls/format";
import type { PolicyVersionDto } from "@/lib/domains/policies";
import { useRollback, useVersions } from "@/lib/domains/policies/hooks";

/** Every version of the rule set, newest first; rolling back writes the chosen one as a new version. */
export function PolicyVersions({ current }: { current: number }) {
  const versions = useVersions();
  const rollback = useRollback();
  const [target, setTarget] = useState<PolicyVersionDto | null>(null);
  return (
    <section aria-labelledby="versions-heading" className="flex flex-col gap-2">
      <h2 id="versions-heading" className="text-sm font-semibold">
        Versions
      </h2>
      <p className="text-xs text-muted">Every change to the rules or the default is a version, recorded in the audit log. Rolling back makes the chosen version current again as a new version.</p>
      {versions.isPending ? (
        <Skeleton className="h-20 w-full" />
      ) : versions.error ? (
        <ErrorAlert error={versions.error} title="Could not load the versions" />
      ) : versions.data.length === 0 ? (
        <p className="text-sm text-muted">No changes yet.</p>
      ) : (
        <Table columns={["Version", "Change", "Who", "When", { name: "Actions", hidden: true }]} aria-label="Policy versions">
          {versions.data.map((v) => (
            <Row key={v.version} data-testid="policy-version" data-version={v.version}>
              <Cell label="Version" className="tabular-nums">
                v{v.version}
                {v.version === current && <span className="ml-1 text-xs text-muted">(current)</span>}
              </Cell>
              <Cell label="Change" className="break-words">
                {v.change}
                <span className="block text-xs text-muted">
                  {v.ruleCount === 1 ? "1 rule" : `${v.ruleCount} rules`}, default {v.policyDefault}
                </span>
              </Cell>
              <Cell label="Who">{v.actor.name ?? "–"}</Cell>
              <Cell label="When" className="text-xs text-muted">
                <time dateTime={v.createdAt}>{formatTime(v.createdAt, true)}</time>
              </Cell>
              <Cell actions className="text-right">
                {v.version !== current && (
                  <RoleGate min="admin">
                    <Button size="sm" onClick={() => setTarget(v)} aria-label={`Roll back to version ${v.version}`}>
                      Roll back to this
                    </Button>
                  </RoleGate>
                )}
              </Cell>
            </Row>
          ))}
        </Table>
      )}
      <ConfirmDialog
        open={target !== null}
        title={`Roll back to version ${target?.version ?? ""}?`}
        description={target ? `The rules and default become those of version ${target.version} (${target.ruleCount === 1 ? "1 rule" : `${target.ruleCount} rules`}, default ${target.policyDefault}), saved as a new version. Calls are judged by it at once.` : undefined}
        confirmLabel="Roll back"
        busy={rollback.isPending}
        error={<ErrorAlert error={rollback.error} />}
        onClose={() => setTarget(null)}
        onConfirm={() => target && rollback.mutate(target.version, { onSuccess: () => setTarget(null) })}
      />
    </section>
  );
}
