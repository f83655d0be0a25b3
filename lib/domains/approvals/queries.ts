import { prisma } from "@/lib/core/db/client";
import type { Prisma } from "@prisma/client";

// The only writer of the approval table.

export function createApproval({ data }: { data: Prisma.ApprovalUncheckedCreateInput }) {
  return prisma.approval.create({ data });
}

export function findApproval({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.approval.findFirst({ where: { workspaceId, id } });
}

export function findApprovalById({ id }: { id: string }) {
  return prisma.approval.findUnique({ where: { id } });
}

/** Newest first; `decided`: anything no longer pending. */
export function listApprovals({ workspaceId, status, take = 100 }: { workspaceId: string; status: "pending" | "decided" | "all"; take?: number }) {
  const where: Prisma.ApprovalWhereInput = { workspaceId, ...(status === "pending" ? { status: "pending" } : status === "decided" ? { status: { not: "pending" } } : {}) };
  return prisma.approval.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take });
}

/** Settles a pending approval (compare-and-set): false when it was no longer pending. */
export async function settleApproval({ id, data }: { id: string; data: { status: string; reason: string | null; decidedById: string | null; decidedByName: string | null } }) {
  const { count } = await prisma.approval.updateMany({ where: { id, status: "pending" }, data: { ...data, decidedAt: new Date() } });
  return count === 1;
}

/** Pending approvals past their deadline (the expiry job's work). */
export function findOverdue({ now, take = 500 }: { now: Date; take?: number }) {
  return prisma.approval.findMany({ where: { status: "pending", expiresAt: { lte: now } }, select: { id: true, workspaceId: true, ruleName: true, expiresAt: true, createdAt: true }, take });
}

/** The status of held calls' rows: a call no longer `pending` has nobody waiting for its approval (its instance stopped). */
export function callStatuses({ ids }: { ids: string[] }) {
  return prisma.call.findMany({ where: { id: { in: ids } }, select: { id: true, status: true } });
}

export type ApprovalRow = NonNullable<Awaited<ReturnType<typeof findApproval>>>;
