"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { policyKeys, type PolicyDefault, type PolicyRule, type PolicySetDto, type PolicyTestResult, type PolicyVersionDto } from "./index";

const enc = encodeURIComponent;

/** A rule as the create route takes it (the server gives the id; `enabled` defaults to true). */
export type RuleInput = Omit<PolicyRule, "id" | "enabled"> & { enabled?: boolean };
/** PATCH: the fields given replace the rule's; null removes an optional one. */
type RulePatch = { [K in keyof RuleInput]?: RuleInput[K] | null };
/** The fields useUpdateRule's mutate changes, beside the rule's `id`. */
export type RuleUpdate = RulePatch;

interface TestPolicyInput {
  principal: { role?: string; userId?: string; tokenId?: string; clientId?: string; groups?: string[] };
  serverId: string;
  tool?: string;
  prompt?: string;
  resource?: string;
  arguments?: unknown;
}

type SetReply = { items: PolicyRule[]; version: number; policyDefault: PolicyDefault; updatedAt: string | null };
const toSet = (r: SetReply): PolicySetDto => ({ rules: r.items, version: r.version, policyDefault: r.policyDefault, updatedAt: r.updatedAt });

/** The rule set: `{ rules, version, policyDefault, updatedAt }`. */
export function useRules() {
  return useQuery({
    queryKey: policyKeys.set(),
    queryFn: ({ signal }) => api<SetReply>("/policy-rules", { signal }).then(toSet),
    staleTime: 5_000,
  });
}

export function useVersions(limit = 50) {
  return useQuery({
    queryKey: [...policyKeys.versions(), limit],
    queryFn: ({ signal }) => api<{ items: PolicyVersionDto[] }>("/policy-rules/versions", { signal, query: { limit } }).then((r) => r.items),
  });
}

function useChanged() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: policyKeys.all() });
}

export function useCreateRule() {
  const changed = useChanged();
  return useMutation({
    mutationFn: (input: RuleInput) => api<{ rule: PolicyRule }>("/policy-rules", { method: "POST", body: input }).then((r) => r.rule),
    onSuccess: changed,
  });
}

export function useUpdateRule() {
  const changed = useChanged();
  return useMutation({
    mutationFn: ({ id, ...patch }: { id: string } & RuleUpdate) => api<{ rule: PolicyRule }>(`/policy-rules/${enc(id)}`, { method: "PATCH", body: patch }).then((r) => r.rule),
    onSuccess: changed,
  });
}

export function useDeleteRule() {
  const changed = useChanged();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/policy-rules/${enc(id)}`, { method: "DELETE" }),
    onSuccess: changed,
  });
}

export function useRollback() {
  const changed = useChanged();
  return useMutation({
    mutationFn: (version: number) => api<SetReply>("/policy-rules/rollback", { method: "POST", body: { version } }).then(toSet),
    onSuccess: changed,
  });
}

/** The tester: "would this call be allowed?" (counts no rate limit). */
export function useTestPolicy() {
  return useMutation({
    mutationFn: (input: TestPolicyInput) => api<PolicyTestResult>("/policy-rules/test", { method: "POST", body: input }),
  });
}

/** PATCH /api/v1/workspace `{ policyDefault }` (admin). */
export function useSetPolicyDefault() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (policyDefault: PolicyDefault) => api("/workspace", { method: "PATCH", body: { policyDefault } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: policyKeys.all() });
      // lib/team/workspaces' settings key (a floor above this domain: named, not imported).
      void queryClient.invalidateQueries({ queryKey: ["workspace-settings"] });
    },
  });
}
