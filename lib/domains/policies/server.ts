import "server-only";
import { ROLES, type Principal, type Role } from "@/lib/core/access";
import { z } from "zod";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import type { PolicyKind, PolicySubject, PolicyTestResult } from "./index";
import type { TestPolicy } from "./schemas";
import { compiledSet, decideWithoutCounting } from "./decide";
import * as q from "./queries";

export { decide, listable, registerDefinitionGuard, registerGroupResolver } from "./decide";
export { sharedLimiter } from "./limits";
export { createRule, deleteRule, getRule, listRules, listVersions, rollback, setPolicyDefault, updateRule } from "./rules";

const asRole = (role: string): Role => ((ROLES as readonly string[]).includes(role) ? (role as Role) : "viewer");

/** The tester's principal as the engine sees it: a member or token resolved to its role in the workspace. */
async function subjectOf(principal: Principal, who: TestPolicy["principal"]): Promise<PolicySubject> {
  const subject: PolicySubject = { workspaceId: principal.workspaceId, role: who.role ?? "member", userId: who.userId ?? null, tokenId: who.tokenId ?? null, clientId: who.clientId ?? null, groups: who.groups ?? [] };
  if (who.tokenId) {
    const token = await q.findToken({ workspaceId: principal.workspaceId, id: who.tokenId });
    if (!token) throw notFound("Token");
    subject.userId ??= token.userId;
    const member = await q.findMemberRole({ workspaceId: principal.workspaceId, userId: token.userId });
    if (!who.role) subject.role = token.scope.split(",").includes("read") ? "viewer" : asRole(member?.role ?? "viewer");
  } else if (who.userId) {
    const member = await q.findMemberRole({ workspaceId: principal.workspaceId, userId: who.userId });
    if (!member) throw notFound("Member");
    if (!who.role) subject.role = asRole(member.role);
  }
  return subject;
}

/** "Would this call be allowed?": the decision and the deciding rule, counting no rate limit. */
export async function testPolicy(principal: Principal, input: TestPolicy): Promise<PolicyTestResult> {
  const [kind, name]: [PolicyKind, string] = input.tool !== undefined ? ["tool", input.tool] : input.prompt !== undefined ? ["prompt", input.prompt] : ["resource", input.resource!];
  const decision = await decideWithoutCounting({ subject: await subjectOf(principal, input.principal), serverId: input.serverId, kind, name, arguments: input.arguments ?? {} });
  return { decision: decision.effect, ruleId: decision.rule?.id ?? null, reason: decision.reason };
}

/** The workspace's default for calls no rule matches (GET /api/v1/workspace). */
export async function getPolicyDefault(workspaceId: string): Promise<"allow" | "deny"> {
  return (await compiledSet(workspaceId)).policyDefault;
}

/**
 * A rule body's field errors answer 422 `unprocessable` (the issue's contract for rules), in the
 * shape parseBody gives them otherwise: "<field path>: <message>", with zod's `issues`.
 */
export function unprocessableRule(err: unknown): never {
  if (!(err instanceof z.ZodError)) throw err;
  const first = err.issues[0];
  const where = first?.path.length ? `${first.path.join(".")}: ` : "";
  throw new SwitchboardError("unprocessable", `${where}${first?.message ?? "Invalid rule"}`, { issues: err.issues });
}
