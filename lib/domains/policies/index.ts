import type { Role } from "@/lib/core/access";

// Governance (docs/governance.md): a workspace's rules decide, for each call, allow, deny or
// "a person must approve". One engine (./engine.ts, Cedar) serves the API's call path, collections,
// monitors and both gateway paths.

export const POLICY_EFFECTS = ["allow", "deny", "approve"] as const;
export type PolicyEffect = (typeof POLICY_EFFECTS)[number];
export const CONDITION_OPS = ["equals", "in", "matches", "lt", "gt", "exists"] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];
export const MAX_RULES = 500;

/** A condition on the arguments: the value at `path` (a JSON pointer) compared with `value`. */
export interface PolicyCondition {
  path: string;
  op: ConditionOp;
  value?: unknown;
}

/** Who a rule applies to: anyone matching one of the lists (no lists: everyone). */
export interface PolicyPrincipals {
  roles?: Role[];
  members?: string[];
  tokens?: string[];
  /** Gateway hosts: their OAuth client id. */
  hosts?: string[];
  groups?: string[];
}

export interface PolicyRule {
  id: string;
  name: string;
  effect: PolicyEffect;
  /** Server ids (absent: every server). */
  servers?: string[];
  /** Tool names or globs (`*` any run of characters); absent: every tool. */
  tools?: string[];
  /** Prompt names or globs: the rule also governs prompts/get of these. */
  prompts?: string[];
  /** Resource URIs or globs: the rule also governs resources/read of these. */
  resources?: string[];
  principals?: PolicyPrincipals;
  when?: PolicyCondition[];
  /** `approve` rules: who may decide besides admins and owners. */
  approvers?: { roles?: Role[] };
  /** `approve` rules: no answer within this long is a denial (default 300). */
  timeoutSeconds?: number;
  /** At most `calls` per `perSeconds` for each caller on what the rule targets. */
  rateLimit?: { calls: number; perSeconds: number };
  enabled: boolean;
}

export type PolicyDefault = "allow" | "deny";

/** What a governed request is: a tool call, a prompt get or a resource read. */
export type PolicyKind = "tool" | "prompt" | "resource";

/** Who is calling, as the rules see it. */
export interface PolicySubject {
  workspaceId: string;
  role: Role;
  userId: string | null;
  tokenId: string | null;
  /** A gateway host's OAuth client id. */
  clientId: string | null;
  /** The member's IdP groups where SSO gives them. */
  groups: string[];
}

export interface PolicyRequest {
  subject: PolicySubject;
  serverId: string;
  kind: PolicyKind;
  /** The tool or prompt name, or the resource URI. */
  name: string;
  arguments: unknown;
}

/** The engine's answer; `rule` is null when the workspace default decided. */
export interface PolicyDecision {
  effect: PolicyEffect;
  rule: { id: string; name: string } | null;
  /** In words, naming the rule and the argument that decided: shown to the caller. */
  reason: string;
  /** `approve`: how long to wait and who may decide. */
  approval?: { timeoutSeconds: number; approverRoles: Role[] };
  /** A rule's rate limit refused the call (effect "deny"): retry after this many seconds (JSON-RPC error data, HTTP 429). */
  limited?: true;
  retryAfter?: number;
}

export interface PolicySetDto {
  version: number;
  policyDefault: PolicyDefault;
  rules: PolicyRule[];
  updatedAt: string | null;
}

export interface PolicyVersionDto {
  version: number;
  policyDefault: PolicyDefault;
  ruleCount: number;
  change: string;
  actor: { id: string | null; name: string | null };
  createdAt: string;
}

export interface PolicyTestResult {
  decision: PolicyEffect;
  ruleId: string | null;
  reason: string;
}

export const policyKeys = {
  all: () => ["policies"] as const,
  set: () => ["policies", "set"] as const,
  versions: () => ["policies", "versions"] as const,
};
