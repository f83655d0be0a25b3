import { preparsePolicySet, statefulIsAuthorized, type Context } from "@cedar-policy/cedar-wasm/nodejs";
import type { PolicyCondition, PolicyKind, PolicyRequest, PolicyRule, PolicySubject } from "./index";
import { canonical, cedarDecimal, cedarString, isMissing, parsePointer, regexMatches, targetsOf, valueAt } from "./match";

// Rules to Cedar: each enabled rule is one `permit` whose condition is its whole match (who,
// server, name, arguments); a request is Cedar's context (no entities). Cedar answers which
// policies are satisfied; ./engine.ts picks the deciding one among them.

const list = (items: string[]) => `[${items.map((s) => cedarString(s)).join(", ")}]`;
const arg = (pointer: string) => `context.args[${cedarString(pointer)}]`;
const has = (field: "args" | "nums", pointer: string) => `context.${field} has ${cedarString(pointer)}`;

/** The key of a `matches` condition's answer in the context (computed in JS: RE2 is not Cedar's). */
export const regexKey = (ruleIndex: number, condIndex: number) => `${ruleIndex}.${condIndex}`;

function condition(c: PolicyCondition, ruleIndex: number, condIndex: number): string {
  switch (c.op) {
    case "exists":
      return has("args", c.path);
    case "equals":
      return `(${has("args", c.path)} && ${arg(c.path)} == ${cedarString(canonical(c.value))})`;
    case "in":
      return `(${has("args", c.path)} && ${list((c.value as unknown[]).map(canonical))}.contains(${arg(c.path)}))`;
    case "lt":
    case "gt":
      return `(${has("nums", c.path)} && decimal(context.nums[${cedarString(c.path)}]).${c.op === "lt" ? "lessThan" : "greaterThan"}(decimal("${cedarDecimal(c.value) ?? "0.0"}")))`;
    case "matches":
      return `context.re[${cedarString(regexKey(ruleIndex, condIndex))}]`;
  }
}

// The kind and name as one string ("tool/read_file"): kinds hold no "/", so a glob on the name
// stays a glob on the pair. Who is calling is one set ("role:member", "user:<id>", …): each context
// field costs Cedar's conversion time, so the context holds as few as the rules need.
const target = (kind: PolicyKind, name: string) => `${kind}/${name}`;

function names(rule: PolicyRule): string | null {
  if (targetsOf(rule, "tool") === null) return null;
  const kinds: [PolicyKind, string[] | undefined][] = [
    ["tool", rule.tools],
    ["prompt", rule.prompts],
    ["resource", rule.resources],
  ];
  const any = kinds.flatMap(([kind, patterns]) =>
    (patterns ?? []).map((p) => (p.includes("*") ? `context.target like ${cedarString(target(kind, p), "glob")}` : `context.target == ${cedarString(target(kind, p))}`)),
  );
  return any.length ? `(${any.join(" || ")})` : "false";
}

// NUL separates the parts of `who`: one string with `like` costs Cedar less than a set.
const part = (kind: string, id: string) => `${kind}:${id.replaceAll("\u0000", "\ufffd")}\u0000`;

/** Who the subject is, as one string: "\0role:member\0user:<id>\0…group:<name>\0". */
export function whoOf(s: PolicySubject): string {
  let who = `\u0000${part("role", s.role)}`;
  if (s.userId) who += part("user", s.userId);
  if (s.tokenId) who += part("token", s.tokenId);
  if (s.clientId) who += part("host", s.clientId);
  for (const g of s.groups) who += part("group", g);
  return who;
}

function who(rule: PolicyRule): string | null {
  const p = rule.principals;
  const any = [
    ...(p?.roles ?? []).map((r) => part("role", r)),
    ...(p?.members ?? []).map((m) => part("user", m)),
    ...(p?.tokens ?? []).map((t) => part("token", t)),
    ...(p?.hosts ?? []).map((h) => part("host", h)),
    ...(p?.groups ?? []).map((g) => part("group", g)),
  ].map((one) => `context.who like ${likeAnywhere(one)}`);
  return any.length ? `(${any.join(" || ")})` : null;
}

/** A `like` pattern finding "\0<part>" anywhere in `who`. */
const likeAnywhere = (one: string) => `"*${cedarString(`\u0000${one}`, "literal").slice(1, -1)}*"`;

/** One rule as a Cedar policy. */
export function toCedar(rule: PolicyRule, ruleIndex: number): string {
  const parts = [
    who(rule),
    rule.servers ? `${list(rule.servers)}.contains(context.server)` : null,
    names(rule),
    ...(rule.when ?? []).map((c, j) => condition(c, ruleIndex, j)),
  ].filter((s): s is string => s !== null);
  return `permit(principal, action, resource) when { ${parts.length ? parts.join(" && ") : "true"} };`;
}

/** The request as Cedar's context: the fields `rules` use, the argument values at their pointers. */
export function toContext(request: PolicyRequest, rules: { rule: PolicyRule; index: number }[]): Context {
  const context: Context = {};
  let args: Record<string, string> | null = null;
  let nums: Record<string, string> | null = null;
  let re: Record<string, boolean> | null = null;
  for (const { rule, index } of rules) {
    if (rule.principals && !context.who) context.who = whoOf(request.subject);
    if (rule.servers && !context.server) context.server = request.serverId;
    if ((rule.tools || rule.prompts || rule.resources) && !context.target) context.target = target(request.kind, request.name);
    (rule.when ?? []).forEach((c, j) => {
      const tokens = parsePointer(c.path);
      const value = tokens ? valueAt(request.arguments, tokens) : undefined;
      const present = tokens !== null && !isMissing(value);
      if (c.op === "matches") (re ??= Object.create(null) as Record<string, boolean>)[regexKey(index, j)] = present && regexMatches(value, c.value);
      else if (c.op === "lt" || c.op === "gt") {
        const dec = present ? cedarDecimal(value) : null;
        nums ??= Object.create(null) as Record<string, string>;
        if (dec !== null) nums[c.path] = dec;
      } else {
        args ??= Object.create(null) as Record<string, string>;
        if (present) args[c.path] = canonical(value);
      }
    });
  }
  if (args) context.args = args;
  if (nums) context.nums = nums;
  if (re) context.re = re;
  return context;
}

// Cedar keeps preparsed sets inside its wasm instance, one per module graph (so this registry is
// module state, not a runtime piece): a bounded number of slots, the least recently used reused.
const SLOTS = 256;
const cedar = { slots: new Map<string, string>(), next: 0, free: [] as string[] };

function slotFor(key: string, policies: () => Record<string, string>): string {
  const hit = cedar.slots.get(key);
  if (hit) {
    cedar.slots.delete(key);
    cedar.slots.set(key, hit);
    return hit;
  }
  if (cedar.slots.size >= SLOTS) {
    const [oldest, slot] = cedar.slots.entries().next().value as [string, string];
    cedar.slots.delete(oldest);
    cedar.free.push(slot);
  }
  const slot = cedar.free.pop() ?? `s${cedar.next++}`;
  const answer = preparsePolicySet(slot, { staticPolicies: policies() });
  if (answer.type !== "success") throw new Error(`policy set did not compile: ${answer.errors.map((e) => e.message).join("; ")}`);
  cedar.slots.set(key, slot);
  return slot;
}

const UID = { principal: { type: "Caller", id: "caller" }, action: { type: "Action", id: "call" }, resource: { type: "Target", id: "target" } };

/**
 * The indexes (into `rules`) of the rules Cedar finds satisfied by the request. `key` names this
 * exact list of rules (workspace, version, which ones) so that its compiled set is reused.
 */
export function satisfied(key: string, request: PolicyRequest, rules: { rule: PolicyRule; index: number }[]): number[] {
  const slot = slotFor(key, () => Object.fromEntries(rules.map(({ rule, index }) => [`p${index}`, toCedar(rule, index)])));
  const answer = statefulIsAuthorized({ ...UID, context: toContext(request, rules), preparsedPolicySetId: slot, entities: [] });
  if (answer.type !== "success") throw new Error(`policy evaluation failed: ${answer.errors.map((e) => e.message).join("; ")}`);
  return answer.response.diagnostics.reason.map((id) => Number(id.slice(1)));
}
