import { isUniqueViolation, prisma } from "@/lib/core/db/client";

// The only writer of policy_set and policy_version. Each change writes the set at version + 1 and
// its version row together, guarded by the version it read: a concurrent writer's change makes
// the guard miss (or the version row's unique key refuse), and the caller reads again and retries.

export function findPolicySet({ workspaceId }: { workspaceId: string }) {
  return prisma.policySet.findUnique({ where: { workspaceId } });
}

export type PolicySetRow = NonNullable<Awaited<ReturnType<typeof findPolicySet>>>;

export async function policyVersion({ workspaceId }: { workspaceId: string }): Promise<number> {
  return (await prisma.policySet.findUnique({ where: { workspaceId }, select: { version: true } }))?.version ?? 0;
}

export interface PolicyWrite {
  workspaceId: string;
  /** The version the change was computed from (0: no set stored yet). */
  fromVersion: number;
  defaultEffect: string;
  rules: string;
  change: string;
  actorId: string | null;
  actorName: string | null;
}

/** Stores the change as version `fromVersion + 1`; false when another writer got there first. */
export async function writePolicySet(w: PolicyWrite): Promise<boolean> {
  const version = w.fromVersion + 1;
  try {
    return await prisma.$transaction(async (tx) => {
      if (w.fromVersion === 0) {
        const exists = await tx.policySet.findUnique({ where: { workspaceId: w.workspaceId }, select: { version: true } });
        if (exists) return false;
        await tx.policySet.create({ data: { workspaceId: w.workspaceId, version, defaultEffect: w.defaultEffect, rules: w.rules } });
      } else {
        const { count } = await tx.policySet.updateMany({
          where: { workspaceId: w.workspaceId, version: w.fromVersion },
          data: { version, defaultEffect: w.defaultEffect, rules: w.rules },
        });
        if (count === 0) return false;
      }
      await tx.policyVersion.create({
        data: { workspaceId: w.workspaceId, version, defaultEffect: w.defaultEffect, rules: w.rules, change: w.change, actorId: w.actorId, actorName: w.actorName },
      });
      return true;
    });
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

export function listPolicyVersions({ workspaceId, limit }: { workspaceId: string; limit: number }) {
  return prisma.policyVersion.findMany({ where: { workspaceId }, orderBy: { version: "desc" }, take: limit });
}

export function findPolicyVersion({ workspaceId, version }: { workspaceId: string; version: number }) {
  return prisma.policyVersion.findUnique({ where: { workspaceId_version: { workspaceId, version } } });
}

// Reads for the tester: who a member or token is in the workspace.

export function findMemberRole({ workspaceId, userId }: { workspaceId: string; userId: string }) {
  return prisma.member.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, select: { role: true } });
}

export function findToken({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.apiToken.findFirst({ where: { workspaceId, id, revokedAt: null }, select: { userId: true, scope: true } });
}
