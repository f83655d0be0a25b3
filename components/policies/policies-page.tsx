"use client";

import { useMemo } from "react";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Skeleton } from "@/components/ui/spinner";
import { useRules } from "@/lib/domains/policies/hooks";
import { useServers } from "@/lib/domains/servers/hooks";
import { deniedReason, effectiveRole, roleAtLeast } from "@/lib/core/access";
import { useMe, useTokens } from "@/lib/identity/auth/hooks";
import { useMembers } from "@/lib/team/members/hooks";
import { PolicyDefaultSetting } from "./policy-default";
import { PolicyTester } from "./policy-tester";
import { PolicyVersions } from "./policy-versions";
import type { Names } from "./rule-words";
import { RulesList } from "./rules-list";

/** The workspace's rule set: the default, the rules, the tester and the versions. Admins edit; everyone reads. */
export function PoliciesPage() {
  const set = useRules();
  const role = useMe().data?.role;
  const readOnly = role && !roleAtLeast(role, "admin") ? deniedReason(effectiveRole(role, undefined), "admin", "change policies") : null;
  const servers = useServers();
  const members = useMembers();
  const tokens = useTokens();
  const names = useMemo<Names>(
    () => ({
      servers: new Map((servers.data ?? []).map((s) => [s.id, s.name])),
      members: new Map((members.data ?? []).map((m) => [m.id, m.name])),
      tokens: new Map((tokens.data ?? []).map((t) => [t.id, t.name])),
    }),
    [servers.data, members.data, tokens.data],
  );

  if (set.isPending) {
    return (
      <div className="flex flex-col gap-2">
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (set.error) return <ErrorAlert error={set.error} title="Could not load the rules" />;
  const s = set.data;
  return (
    <div className="flex max-w-5xl flex-col gap-5">
      {readOnly && (
        <Alert tone="info" title="Read-only for you">
          {readOnly}
        </Alert>
      )}
      <PolicyDefaultSetting value={s.policyDefault} />
      <RulesList rules={s.rules} names={names} />
      <PolicyTester rules={s.rules} />
      <PolicyVersions current={s.version} />
    </div>
  );
}
