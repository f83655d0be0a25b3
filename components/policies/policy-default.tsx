"use client";

import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { RoleGate } from "@/components/ui/role-gate";
import type { PolicyDefault } from "@/lib/domains/policies";
import { useSetPolicyDefault } from "@/lib/domains/policies/hooks";

const WORDS: Record<PolicyDefault, string> = {
  allow: "A call no rule matches goes through. Rules carve out what is denied or needs approval.",
  deny: "A call no rule matches is refused. Only what a rule allows (or holds for approval) goes through, and hosts list only those tools.",
};

/** The workspace default: what happens to a call no enabled rule matches. */
export function PolicyDefaultSetting({ value }: { value: PolicyDefault }) {
  const set = useSetPolicyDefault();
  const other: PolicyDefault = value === "allow" ? "deny" : "allow";
  return (
    <section aria-labelledby="default-heading" className="flex flex-col gap-2 rounded-md border bg-panel p-3">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="default-heading" className="text-sm font-semibold">
          Workspace default
        </h2>
        <Badge tone={value === "allow" ? "green" : "red"} testId="policy-default">
          {value === "allow" ? "allow" : "deny"}
        </Badge>
        <span className="flex-1" />
        <RoleGate min="admin">
          <Button size="sm" busy={set.isPending} onClick={() => set.mutate(other)}>
            {other === "deny" ? "Deny by default" : "Allow by default"}
          </Button>
        </RoleGate>
      </div>
      <p className="text-sm">{WORDS[value]}</p>
      <p className="text-xs text-muted">Changing it is a new version of the rule set, like any rule change, and can be rolled back.</p>
      <ErrorAlert error={set.error} title="Could not change the default" />
    </section>
  );
}
