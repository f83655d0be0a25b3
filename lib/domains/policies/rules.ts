import "server-only";
import crypto from "node:crypto";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { publish } from "@/lib/core/events/server";
import { forgetCache } from "@/lib/core/runtime";
import { MAX_RULES, type PolicyDefault, type PolicyRule, type PolicySetDto, type PolicyVersionDto } from "./index";
import type { CreateRule, UpdateRule } from "./schemas";
import { readSet } from "./decide";
import type { PolicySetData } from "./engine";
import { parseRules } from "./stored";
import * as q from "./queries";

// Rule set changes: each one is a new version of the whole set (with its version row, an audit
// event and a `policy` event), computed from the version read and retried when another writer
// stored one in between.

interface Change<T> {
  rules: PolicyRule[];
  policyDefault: PolicyDefault;
  change: string;
  action: string;
  target?: { type: string; id?: string | null; name?: string | null };
  details?: Record<string, unknown>;
  result: T;
}

const ATTEMPTS = 20;

async function changeSet<T>(principal: Principal, compute: (current: PolicySetData) => Change<T>): Promise<T> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await readSet(principal.workspaceId);
    const next = compute(current);
    if (next.rules.length > MAX_RULES) throw new SwitchboardError("unprocessable", `A workspace has at most ${MAX_RULES} rules`, { path: ["rules"] });
    const written = await q.writePolicySet({
      workspaceId: principal.workspaceId,
      fromVersion: current.version,
      defaultEffect: next.policyDefault,
      rules: JSON.stringify(next.rules),
      change: next.change,
      actorId: principal.userId,
      actorName: principal.userName,
    });
    if (!written) continue;
    await forgetCache("policyCache");
    const version = current.version + 1;
    publish(principal.workspaceId, { type: "policy", version });
    await audit(principal, { action: next.action, target: next.target, details: { version, change: next.change, ...next.details } });
    return next.result;
  }
  throw new SwitchboardError("conflict", "The rule set kept changing under this write; try again");
}

const toDto = (data: PolicySetData, updatedAt: Date | null): PolicySetDto => ({ version: data.version, policyDefault: data.policyDefault, rules: data.rules, updatedAt: updatedAt?.toISOString() ?? null });

export async function listRules(principal: Principal): Promise<PolicySetDto> {
  const row = await q.findPolicySet({ workspaceId: principal.workspaceId });
  return toDto({ workspaceId: principal.workspaceId, version: row?.version ?? 0, policyDefault: row?.defaultEffect === "deny" ? "deny" : "allow", rules: row ? parseRules(row.rules) : [] }, row?.updatedAt ?? null);
}

export async function getRule(principal: Principal, id: string): Promise<PolicyRule> {
  const rule = (await readSet(principal.workspaceId)).rules.find((r) => r.id === id);
  if (!rule) throw notFound("Rule");
  return rule;
}

/** The rule as stored: no empty optional fields, `enabled` always present. */
function normalise(rule: PolicyRule): PolicyRule {
  const out = Object.fromEntries(Object.entries(rule).filter(([, v]) => v !== null && v !== undefined)) as unknown as PolicyRule;
  if (out.principals && !Object.values(out.principals).some((v) => Array.isArray(v) && v.length)) delete out.principals;
  if (out.when && !out.when.length) delete out.when;
  return { ...out, enabled: out.enabled ?? true };
}

export async function createRule(principal: Principal, input: CreateRule): Promise<PolicyRule> {
  const rule = normalise({ ...input, id: `rule_${crypto.randomBytes(9).toString("base64url")}`, enabled: input.enabled ?? true });
  return changeSet(principal, (current) => ({
    rules: [...current.rules, rule],
    policyDefault: current.policyDefault,
    change: `rule "${rule.name}" created`,
    action: "policy.rule_created",
    target: { type: "policy_rule", id: rule.id, name: rule.name },
    details: { effect: rule.effect },
    result: rule,
  }));
}

export async function updateRule(principal: Principal, id: string, input: UpdateRule): Promise<PolicyRule> {
  return changeSet(principal, (current) => {
    const existing = current.rules.find((r) => r.id === id);
    if (!existing) throw notFound("Rule");
    const rule = normalise({ ...existing, ...(input as Partial<PolicyRule>), id });
    const changed = Object.keys(input).filter((k) => input[k as keyof UpdateRule] !== undefined);
    const what = changed.length === 1 && changed[0] === "enabled" ? (rule.enabled ? "enabled" : "disabled") : `changed (${changed.join(", ")})`;
    return {
      rules: current.rules.map((r) => (r.id === id ? rule : r)),
      policyDefault: current.policyDefault,
      change: `rule "${rule.name}" ${what}`,
      action: "policy.rule_updated",
      target: { type: "policy_rule", id, name: rule.name },
      details: { changed },
      result: rule,
    };
  });
}

export async function deleteRule(principal: Principal, id: string): Promise<void> {
  await changeSet(principal, (current) => {
    const existing = current.rules.find((r) => r.id === id);
    if (!existing) throw notFound("Rule");
    return {
      rules: current.rules.filter((r) => r.id !== id),
      policyDefault: current.policyDefault,
      change: `rule "${existing.name}" deleted`,
      action: "policy.rule_deleted",
      target: { type: "policy_rule", id, name: existing.name },
      result: undefined,
    };
  });
}

export async function setPolicyDefault(principal: Principal, policyDefault: PolicyDefault): Promise<PolicyDefault> {
  const current = await readSet(principal.workspaceId);
  if (current.policyDefault === policyDefault && current.version > 0) return policyDefault;
  return changeSet(principal, (now) => ({
    rules: now.rules,
    policyDefault,
    change: `default set to ${policyDefault}`,
    action: "policy.default_changed",
    details: { from: now.policyDefault, to: policyDefault },
    result: policyDefault,
  }));
}

export async function listVersions(principal: Principal, { limit }: { limit: number }): Promise<{ items: PolicyVersionDto[] }> {
  const rows = await q.listPolicyVersions({ workspaceId: principal.workspaceId, limit });
  return {
    items: rows.map((r) => ({
      version: r.version,
      policyDefault: r.defaultEffect === "deny" ? "deny" : "allow",
      ruleCount: parseRules(r.rules).length,
      change: r.change,
      actor: { id: r.actorId, name: r.actorName },
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

/** Makes an earlier version's rules and default the current ones, as a new version. */
export async function rollback(principal: Principal, { version }: { version: number }): Promise<PolicySetDto> {
  const old = await q.findPolicyVersion({ workspaceId: principal.workspaceId, version });
  if (!old) throw notFound("Version");
  const rules = parseRules(old.rules);
  const policyDefault: PolicyDefault = old.defaultEffect === "deny" ? "deny" : "allow";
  await changeSet(principal, () => ({
    rules,
    policyDefault,
    change: `rolled back to version ${version}`,
    action: "policy.rolled_back",
    details: { to: version },
    result: undefined,
  }));
  return listRules(principal);
}
