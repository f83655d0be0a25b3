import type { Role } from "@/lib/core/access";
import type { PolicyCondition, PolicyDecision, PolicyDefault, PolicyEffect, PolicyKind, PolicyRequest, PolicyRule, PolicySubject } from "./index";
import { satisfied } from "./compile";
import { appliesTo, specificity, targets } from "./match";

// The decision: Cedar (./compile.ts) says which rules match a request; the most specific of them
// decides, deny > approve > allow among equally specific ones; none: the workspace default.
// Rules are first narrowed in JS by server and name (cheap), so that each Cedar call evaluates
// only the rules that could match, and no Cedar call happens when none could.

export interface PolicySetData {
  workspaceId: string;
  version: number;
  policyDefault: PolicyDefault;
  rules: PolicyRule[];
}

interface Entry {
  rule: PolicyRule;
  index: number;
  spec: number;
}

export interface CompiledSet extends PolicySetData {
  enabled: Entry[];
  /** Candidate rules by server, kind and name (bounded memo). */
  candidates: Map<string, Entry[]>;
  /** Whether an enabled rule names IdP groups (only then are a member's groups looked up). */
  usesGroups: boolean;
}

const MEMO = 5000;
const RANK: Record<PolicyEffect, number> = { deny: 3, approve: 2, allow: 1 };
const DEFAULT_TIMEOUT = 300;

export function compileSet(data: PolicySetData): CompiledSet {
  const enabled = data.rules.flatMap((rule, index) => (rule.enabled ? [{ rule, index, spec: specificity(rule) }] : []));
  return { ...data, enabled, candidates: new Map(), usesGroups: enabled.some((e) => !!e.rule.principals?.groups?.length) };
}

function candidatesOf(set: CompiledSet, serverId: string, kind: PolicyKind, name: string): Entry[] {
  const key = `${serverId}\u0000${kind}\u0000${name}`;
  let found = set.candidates.get(key);
  if (!found) {
    found = set.enabled.filter((e) => targets(e.rule, serverId, kind, name));
    if (set.candidates.size >= MEMO) set.candidates.clear();
    set.candidates.set(key, found);
  }
  return found;
}

/** The deciding entry among matching ones: highest specificity, then deny > approve > allow, then list order. */
function pick(entries: Entry[]): Entry | null {
  let best: Entry | null = null;
  for (const e of entries) {
    if (!best || e.spec > best.spec || (e.spec === best.spec && RANK[e.rule.effect] > RANK[best.rule.effect])) best = e;
  }
  return best;
}

function describe(c: PolicyCondition): string {
  const value = c.op === "exists" ? "" : ` ${JSON.stringify(c.value)}`;
  return `argument ${c.path || "(the arguments)"} ${c.op}${value}`;
}

const VERB: Record<PolicyEffect, string> = { allow: "Allowed", deny: "Denied", approve: "Needs approval" };

function ruleDecision(rule: PolicyRule): PolicyDecision {
  const when = rule.when?.length ? ` (${rule.when.map(describe).join(", ")})` : "";
  const decision: PolicyDecision = { effect: rule.effect, rule: { id: rule.id, name: rule.name }, reason: `${VERB[rule.effect]} by rule "${rule.name}"${when}` };
  if (rule.effect === "approve") {
    const roles: Role[] = ["owner", "admin"];
    for (const r of rule.approvers?.roles ?? []) if (!roles.includes(r)) roles.push(r);
    decision.approval = { timeoutSeconds: rule.timeoutSeconds ?? DEFAULT_TIMEOUT, approverRoles: roles };
  }
  return decision;
}

function defaultDecision(policyDefault: PolicyDefault): PolicyDecision {
  return {
    effect: policyDefault,
    rule: null,
    reason: policyDefault === "deny" ? "No rule allows this call and the workspace denies by default" : "No rule matches; the workspace allows by default",
  };
}

/** The rules that match the request (Cedar's answer), and the decision. */
export function evaluate(set: CompiledSet, request: PolicyRequest): { decision: PolicyDecision; matched: PolicyRule[] } {
  const candidates = candidatesOf(set, request.serverId, request.kind, request.name);
  const possible = candidates.filter((e) => appliesTo(e.rule, request.subject));
  if (!possible.length) return { decision: defaultDecision(set.policyDefault), matched: [] };
  const key = `${set.workspaceId}\u0000${set.version}\u0000${candidates.map((e) => e.index).join(",")}`;
  const hit = new Set(satisfied(key, request, candidates));
  const matched = candidates.filter((e) => hit.has(e.index));
  const best = pick(matched);
  return { decision: best ? ruleDecision(best.rule) : defaultDecision(set.policyDefault), matched: matched.map((e) => e.rule) };
}

/**
 * What a listing shows of each name: hidden only when every call would be denied whatever its
 * arguments. Rules with conditions never hide (a conditional deny may not apply); a conditional
 * allow or approve more specific than what denies shows the item.
 */
export function listing(set: CompiledSet, subject: PolicySubject, serverId: string, kind: PolicyKind, names: string[]): Map<string, "allow" | "approve"> {
  const shown = new Map<string, "allow" | "approve">();
  for (const name of names) {
    const applying = candidatesOf(set, serverId, kind, name).filter((e) => appliesTo(e.rule, subject));
    const fixed = pick(applying.filter((e) => !e.rule.when?.length));
    const base = fixed ? fixed.rule.effect : set.policyDefault;
    if (base !== "deny") {
      shown.set(name, base);
      continue;
    }
    const floor = fixed ? fixed.spec : -1;
    const opening = pick(applying.filter((e) => e.rule.when?.length && e.rule.effect !== "deny" && e.spec > floor));
    if (opening) shown.set(name, opening.rule.effect as "allow" | "approve");
  }
  return shown;
}
