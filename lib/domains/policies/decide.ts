import "server-only";
import { RateLimiterRes } from "rate-limiter-flexible";
import { cacheEpoch, piece } from "@/lib/core/runtime";
import { ruleLimiter } from "./limits";
import type { PolicyDecision, PolicyKind, PolicyRequest, PolicyRule, PolicySubject } from "./index";
import { compileSet, evaluate, listing, type CompiledSet, type PolicySetData } from "./engine";
import { parseRules } from "./stored";
import * as q from "./queries";

// The call path's side of the engine: each workspace's compiled set, cached in the process and
// checked against the stored version at most every RECHECK_MS (another instance's write also
// empties this cache through the cluster channel; the re-check covers a missed message).

const RECHECK_MS = 2000;

interface Cached {
  set: CompiledSet;
  checkedAt: number;
}

const cache = () => piece("policyCache", () => new Map<string, Cached>());

type DefinitionGuard = (serverId: string, kind: PolicyKind, name: string) => Promise<string | null>;
/** A list's items as the server serves them now → the names withheld, with why. */
type ServedGuard = (serverId: string, kind: PolicyKind, served: Record<string, unknown>[]) => Promise<ReadonlyMap<string, string>>;
const guard = () => piece<{ fn: DefinitionGuard | null; served: ServedGuard | null }>("policyGuard", () => ({ fn: null, served: null }));

/**
 * Pinned definitions (lib/start registers drift's): a non-null answer withholds the item, naming
 * why. `served` judges a listing by the definitions it holds, so one changed on a live connection
 * (no snapshot has seen it yet) is withheld too.
 */
export function registerDefinitionGuard(fn: DefinitionGuard | null, served: ServedGuard | null = null): void {
  guard().fn = fn;
  guard().served = served;
}

type GroupResolver = (userId: string) => Promise<string[]>;
const groupSource = () => piece<{ fn: GroupResolver | null }>("policyGroups", () => ({ fn: null }));

/** Where a member's IdP groups come from (lib/start registers SSO's): asked only when a rule names groups. */
export function registerGroupResolver(fn: GroupResolver | null): void {
  groupSource().fn = fn;
}

/** The subject with its member's IdP groups, when the set has a rule on groups and the caller gave none. */
async function withGroups(set: CompiledSet, subject: PolicySubject): Promise<PolicySubject> {
  const resolve = groupSource().fn;
  if (!set.usesGroups || !resolve || !subject.userId || subject.groups.length) return subject;
  return { ...subject, groups: await resolve(subject.userId) };
}

async function withGroupsOf(set: CompiledSet, request: PolicyRequest): Promise<PolicyRequest> {
  const subject = await withGroups(set, request.subject);
  return subject === request.subject ? request : { ...request, subject };
}

/** The stored set as data (version 0, the default "allow" and no rules when none is stored). */
export async function readSet(workspaceId: string): Promise<PolicySetData> {
  const row = await q.findPolicySet({ workspaceId });
  return { workspaceId, version: row?.version ?? 0, policyDefault: row?.defaultEffect === "deny" ? "deny" : "allow", rules: row ? parseRules(row.rules) : [] };
}

/** The workspace's compiled set, from the cache when its version is still the stored one. */
export async function compiledSet(workspaceId: string): Promise<CompiledSet> {
  const now = Date.now();
  const hit = cache().get(workspaceId);
  if (hit && now - hit.checkedAt < RECHECK_MS) return hit.set;
  const epoch = cacheEpoch("policyCache");
  if (hit && (await q.policyVersion({ workspaceId })) === hit.set.version) {
    hit.checkedAt = now;
    return hit.set;
  }
  const set = compileSet(await readSet(workspaceId));
  if (epoch === cacheEpoch("policyCache")) {
    if (cache().size > 10_000) cache().clear();
    cache().set(workspaceId, { set, checkedAt: now });
  }
  return set;
}

/** Who a rate limit counts: a token, a host (per person), a member, else the role. */
function callerKey(s: PolicySubject): string {
  if (s.tokenId) return `t:${s.tokenId}`;
  if (s.clientId) return `c:${s.clientId}:${s.userId ?? ""}`;
  return s.userId ? `u:${s.userId}` : `r:${s.role}`;
}

/** Counts the call against each matching rule with a rate limit: the first over its limit refuses it. */
async function overLimit(matched: PolicyRule[], subject: PolicySubject): Promise<PolicyDecision | null> {
  for (const rule of matched) {
    if (!rule.rateLimit) continue;
    const { calls, perSeconds } = rule.rateLimit;
    try {
      await ruleLimiter({ calls, perSeconds }).consume(`${subject.workspaceId}:${rule.id}:${callerKey(subject)}`);
    } catch (res) {
      // Anything but the limiter's answer (the database away) is the caller's error to convert, not a refusal.
      if (!(res instanceof RateLimiterRes)) throw res;
      const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      return {
        effect: "deny",
        rule: { id: rule.id, name: rule.name },
        reason: `Rate limit of rule "${rule.name}": ${calls} call${calls === 1 ? "" : "s"} per ${perSeconds} s; retry in ${retryAfter} s`,
        retryAfter,
        limited: true,
      };
    }
  }
  return null;
}

/**
 * The decision for one call (tools/call, prompts/get, resources/read), whatever path it took:
 * withheld definitions first, then the rules, then the rules' rate limits.
 */
export async function decide(request: PolicyRequest): Promise<PolicyDecision> {
  const withheld = guard().fn ? await guard().fn!(request.serverId, request.kind, request.name) : null;
  if (withheld !== null) return { effect: "deny", rule: null, reason: withheld };
  const set = await compiledSet(request.subject.workspaceId);
  if (!set.enabled.length) {
    return set.policyDefault === "allow" ? ALLOW_BY_DEFAULT : { effect: "deny", rule: null, reason: "No rule allows this call and the workspace denies by default" };
  }
  const { decision, matched } = evaluate(set, set.usesGroups ? await withGroupsOf(set, request) : request);
  if (decision.effect === "deny") return decision;
  return (await overLimit(matched, request.subject)) ?? decision;
}

const ALLOW_BY_DEFAULT: PolicyDecision = Object.freeze({ effect: "allow", rule: null, reason: "No rule matches; the workspace allows by default" }) as PolicyDecision;

/** Like decide() but counts no rate limit (the tester). */
export async function decideWithoutCounting(request: PolicyRequest): Promise<PolicyDecision> {
  const withheld = guard().fn ? await guard().fn!(request.serverId, request.kind, request.name) : null;
  if (withheld !== null) return { effect: "deny", rule: null, reason: withheld };
  const set = await compiledSet(request.subject.workspaceId);
  return evaluate(set, set.usesGroups ? await withGroupsOf(set, request) : request).decision;
}

/**
 * "Listing follows calling": of `names` (tools, prompts or resource URIs of one server), those
 * the subject may call with some arguments, with "approve" where a person must approve. An item
 * is missing when every call to it would be denied, or its definition is withheld (judged on
 * `served`, the list's items, when the caller has them).
 */
export async function listable(subject: PolicySubject, serverId: string, kind: PolicyKind, names: string[], served?: Record<string, unknown>[]): Promise<Map<string, "allow" | "approve">> {
  const set = await compiledSet(subject.workspaceId);
  const shown = set.enabled.length || set.policyDefault === "deny" ? listing(set, set.usesGroups ? await withGroups(set, subject) : subject, serverId, kind, names) : new Map(names.map((n) => [n, "allow" as const]));
  const { fn: check, served: judge } = guard();
  if (served && judge) {
    for (const name of (await judge(serverId, kind, served)).keys()) shown.delete(name);
  } else if (check) {
    const items = [...shown.keys()];
    const reasons = await Promise.all(items.map((name) => check(serverId, kind, name)));
    items.forEach((name, i) => reasons[i] !== null && shown.delete(name));
  }
  return shown;
}
