"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { RoleGate } from "@/components/ui/role-gate";
import type { PolicyRule } from "@/lib/domains/policies";
import { useDeleteRule, useUpdateRule } from "@/lib/domains/policies/hooks";
import { RuleEditor } from "./rule-editor";
import { conditionsInWords, EFFECT_TONE, EFFECT_WORDS, extrasInWords, principalsInWords, ruleAnchor, targetsInWords, type Names } from "./rule-words";

/** The rules in evaluation terms: what each covers, for whom, when, and whether it is on. */
export function RulesList({ rules, names }: { rules: PolicyRule[]; names: Names }) {
  const [editing, setEditing] = useState<PolicyRule | "new" | null>(null);
  return (
    <section aria-labelledby="rules-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="rules-heading" className="text-sm font-semibold">
          Rules
        </h2>
        <span className="text-xs text-muted">{rules.length === 1 ? "1 rule" : `${rules.length} rules`}</span>
        <span className="flex-1" />
        <RoleGate min="admin">
          <Button variant="primary" onClick={() => setEditing("new")}>
            New rule
          </Button>
        </RoleGate>
      </div>
      <p className="text-xs text-muted">
        For each call the most specific matching rule decides; at the same specificity deny wins over approval, approval over allow. Disabled rules are kept but never match.
      </p>
      {rules.length === 0 ? (
        <EmptyState title="No rules yet">Every call gets the workspace default above. Add a rule to allow, deny or hold calls for approval.</EmptyState>
      ) : (
        <ul aria-label="Policy rules" className="flex flex-col gap-2">
          {rules.map((rule) => (
            <RuleItem key={rule.id} rule={rule} names={names} onEdit={() => setEditing(rule)} />
          ))}
        </ul>
      )}
      <Dialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === "new" ? "New rule" : editing ? `Edit ${editing.name}` : ""}
        description="A rule decides the calls it matches: its targets, for its principals, when all its conditions hold."
        className="w-[min(44rem,calc(100vw-2rem))]"
      >
        {editing !== null && <RuleEditor rule={editing === "new" ? undefined : editing} onDone={() => setEditing(null)} />}
      </Dialog>
    </section>
  );
}

function RuleItem({ rule, names, onEdit }: { rule: PolicyRule; names: Names; onEdit: () => void }) {
  const update = useUpdateRule();
  const remove = useDeleteRule();
  const [deleting, setDeleting] = useState(false);
  const when = conditionsInWords(rule);
  const extras = extrasInWords(rule);
  return (
    <li id={ruleAnchor(rule.id)} data-testid="policy-rule" data-enabled={rule.enabled} className="flex scroll-mt-16 flex-col gap-2 rounded-md border bg-panel p-3 target:ring-2 target:ring-accent sm:flex-row sm:items-start">
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className="flex flex-wrap items-center gap-2">
          <Badge tone={EFFECT_TONE[rule.effect]} testId="rule-effect">
            {EFFECT_WORDS[rule.effect]}
          </Badge>
          <span className="font-medium break-all">{rule.name}</span>
          {!rule.enabled && <Badge>disabled</Badge>}
        </p>
        <p className="text-sm break-words" data-testid="rule-words">
          {targetsInWords(rule, names)}, for {principalsInWords(rule, names)}
          {when ? `, ${when}` : ""}.
        </p>
        {extras.length > 0 && <p className="text-xs text-muted">{extras.join("; ")}.</p>}
        <ErrorAlert error={update.error} title="Could not change the rule" />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <RoleGate min="admin">
          <Button size="sm" role="switch" aria-checked={rule.enabled} aria-label={`${rule.name} enabled`} busy={update.isPending} onClick={() => update.mutate({ id: rule.id, enabled: !rule.enabled })}>
            {rule.enabled ? "On" : "Off"}
          </Button>
        </RoleGate>
        <RoleGate min="admin">
          <Button size="sm" onClick={onEdit} aria-label={`Edit ${rule.name}`}>
            Edit
          </Button>
        </RoleGate>
        <RoleGate min="admin">
          <Button size="sm" variant="danger" onClick={() => setDeleting(true)} aria-label={`Delete ${rule.name}`}>
            Delete
          </Button>
        </RoleGate>
      </div>
      <ConfirmDialog
        open={deleting}
        title={`Delete ${rule.name}?`}
        description="Calls it matched fall to the next most specific rule, or the workspace default. The change is a new version you can roll back."
        confirmLabel="Delete rule"
        busy={remove.isPending}
        error={<ErrorAlert error={remove.error} />}
        onClose={() => setDeleting(false)}
        onConfirm={() => remove.mutate(rule.id, { onSuccess: () => setDeleting(false) })}
      />
    </li>
  );
}
