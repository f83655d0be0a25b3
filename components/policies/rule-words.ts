import type { BadgeTone } from "@/components/ui/badge";
import type { ConditionOp, PolicyCondition, PolicyEffect, PolicyRule } from "@/lib/domains/policies";

export const EFFECT_TONE: Record<PolicyEffect, BadgeTone> = { allow: "green", deny: "red", approve: "amber" };
export const EFFECT_WORDS: Record<PolicyEffect, string> = { allow: "allow", deny: "deny", approve: "needs approval" };

export const OP_WORDS: Record<ConditionOp, string> = {
  equals: "equals",
  in: "is one of",
  matches: "matches (RE2)",
  lt: "is less than",
  gt: "is greater than",
  exists: "is present",
};

/** Names for the ids a rule holds: servers, members and tokens the viewer's lists know. */
export interface Names {
  servers: Map<string, string>;
  members: Map<string, string>;
  tokens: Map<string, string>;
}

const join = (items: string[]) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`);
const named = (ids: string[], names: Map<string, string>) => ids.map((id) => names.get(id) ?? id);

/** What the rule covers: "tools read_* on files", "every call on every server". */
export function targetsInWords(rule: PolicyRule, names: Names): string {
  const what: string[] = [];
  if (rule.tools?.length) what.push(`tool ${join(rule.tools)}`);
  if (rule.prompts?.length) what.push(`prompt ${join(rule.prompts)}`);
  if (rule.resources?.length) what.push(`resource ${join(rule.resources)}`);
  const where = rule.servers?.length ? `on ${join(named(rule.servers, names.servers))}` : "on every server";
  return `${what.length ? join(what) : "every tool, prompt and resource"} ${where}`;
}

/** Who the rule applies to: "admins, Ada or token ci"; no lists: "everyone". */
export function principalsInWords(rule: PolicyRule, names: Names): string {
  const p = rule.principals ?? {};
  const who = [
    ...(p.roles ?? []).map((r) => `${r}s`),
    ...named(p.members ?? [], names.members),
    ...named(p.tokens ?? [], names.tokens).map((t) => `token ${t}`),
    ...(p.hosts ?? []).map((h) => `host ${h}`),
    ...(p.groups ?? []).map((g) => `group ${g}`),
  ];
  return who.length ? join(who) : "everyone";
}

export function conditionInWords(c: PolicyCondition): string {
  if (c.op === "exists") return `${c.path} is present`;
  return `${c.path} ${c.op === "matches" ? "matches" : OP_WORDS[c.op]} ${JSON.stringify(c.value)}`;
}

/** The conditions, all of which must hold: "when /path matches "^/etc/" and /mode equals "w"". */
export function conditionsInWords(rule: PolicyRule): string | null {
  return rule.when?.length ? `when ${rule.when.map(conditionInWords).join(" and ")}` : null;
}

export function extrasInWords(rule: PolicyRule): string[] {
  const extras: string[] = [];
  if (rule.effect === "approve") {
    const roles = rule.approvers?.roles?.length ? `admins or ${join(rule.approvers.roles.map((r) => `${r}s`))}` : "admins";
    extras.push(`${roles} decide within ${rule.timeoutSeconds ?? 300} s, else denied`);
  }
  if (rule.rateLimit) extras.push(`at most ${rule.rateLimit.calls} call${rule.rateLimit.calls === 1 ? "" : "s"} per ${rule.rateLimit.perSeconds} s per caller`);
  return extras;
}

/** A rule's anchor on the page, so a decision can link to the rule that made it. */
export const ruleAnchor = (id: string) => `rule-${id}`;
