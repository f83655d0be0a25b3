import { prisma } from "@/lib/core/db/client";
import { isUniqueViolation } from "@/lib/core/db/client";

// The one writer of job_claim. Loaded by lib/start, outside Next's bundles.

export interface ClaimKey {
  job: string;
  key: string;
  dueAt: Date;
}

export interface ClaimRow extends ClaimKey {
  instanceId: string;
  leaseUntil: Date;
  finishedAt: Date | null;
}

/** The claims of one job at these due times. */
export function claimsAt({ job, dueAts }: { job: string; dueAts: Date[] }): Promise<ClaimRow[]> {
  return prisma.jobClaim.findMany({ where: { job, dueAt: { in: dueAts } }, select: { job: true, key: true, dueAt: true, instanceId: true, leaseUntil: true, finishedAt: true } });
}

/** Inserts the claim: true when this instance has it, false when another instance inserted it first. */
export async function insertClaim({ claim, instanceId, leaseMs }: { claim: ClaimKey; instanceId: string; leaseMs: number }): Promise<boolean> {
  try {
    await prisma.jobClaim.create({ data: { ...claim, instanceId, leaseUntil: new Date(Date.now() + leaseMs) } });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** Takes over a claim left unfinished by an instance whose lease ran out (compare-and-set): true when this instance has it now. */
export async function takeOverClaim({ claim, instanceId, leaseMs }: { claim: ClaimKey; instanceId: string; leaseMs: number }): Promise<boolean> {
  const now = new Date();
  const { count } = await prisma.jobClaim.updateMany({
    where: { ...claim, finishedAt: null, leaseUntil: { lt: now } },
    data: { instanceId, claimedAt: now, leaseUntil: new Date(now.getTime() + leaseMs) },
  });
  return count === 1;
}

/** Keeps this instance's claim while it runs. */
export async function renewClaim({ claim, instanceId, leaseMs }: { claim: ClaimKey; instanceId: string; leaseMs: number }): Promise<void> {
  await prisma.jobClaim.updateMany({ where: { ...claim, instanceId, finishedAt: null }, data: { leaseUntil: new Date(Date.now() + leaseMs) } });
}

export async function finishClaim({ claim, instanceId, outcome }: { claim: ClaimKey; instanceId: string; outcome: string }): Promise<void> {
  await prisma.jobClaim.updateMany({ where: { ...claim, instanceId }, data: { finishedAt: new Date(), outcome: outcome.slice(0, 500) } });
}

/** Hands an unfinished claim back at a stop: another instance may take it over at once. */
export async function releaseClaim({ claim, instanceId }: { claim: ClaimKey; instanceId: string }): Promise<void> {
  await prisma.jobClaim.updateMany({ where: { ...claim, instanceId, finishedAt: null }, data: { leaseUntil: new Date(0) } });
}

export async function pruneClaims({ before }: { before: Date }): Promise<number> {
  return (await prisma.jobClaim.deleteMany({ where: { dueAt: { lt: before } } })).count;
}
