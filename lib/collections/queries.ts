import { prisma } from "@/lib/db/client";

// Collections

const lastRunInclude = { runs: { orderBy: [{ startedAt: "desc" as const }, { id: "desc" as const }], take: 1 } };

export function listCollections({ workspaceId, name }: { workspaceId: string; name?: string }) {
  return prisma.collection.findMany({ where: { workspaceId, ...(name === undefined ? {} : { name }) }, orderBy: [{ name: "asc" }, { id: "asc" }], include: lastRunInclude });
}

export function findCollection({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.collection.findFirst({ where: { workspaceId, id }, include: lastRunInclude });
}

export type CollectionRow = NonNullable<Awaited<ReturnType<typeof findCollection>>>;

export function insertCollection({ data }: { data: { workspaceId: string; name: string; description: string | null; steps: string; variables: string; createdById: string; createdByName: string } }) {
  return prisma.collection.create({ data, include: lastRunInclude });
}

export function updateCollection({ id, data }: { id: string; data: { name?: string; description?: string | null; steps?: string; variables?: string } }) {
  return prisma.collection.update({ where: { id }, data, include: lastRunInclude });
}

export function deleteCollection({ id }: { id: string }) {
  return prisma.collection.delete({ where: { id } });
}

// Environments

export function listEnvironments({ workspaceId }: { workspaceId: string }) {
  return prisma.environment.findMany({ where: { workspaceId }, orderBy: [{ name: "asc" }, { id: "asc" }] });
}

export function findEnvironment({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.environment.findFirst({ where: { workspaceId, id } });
}

/** A run names its environment by name or by id. */
export function findEnvironmentByNameOrId({ workspaceId, ref }: { workspaceId: string; ref: string }) {
  return prisma.environment.findFirst({ where: { workspaceId, OR: [{ name: ref }, { id: ref }] }, orderBy: { name: "asc" } });
}

/** The sealed secret values: only the runner and a secrets update read them. */
export async function findEnvironmentSecrets({ id }: { id: string }): Promise<string | null> {
  const row = await prisma.environment.findUnique({ where: { id }, select: { secrets: true } });
  return row?.secrets ?? null;
}

export type EnvironmentRow = NonNullable<Awaited<ReturnType<typeof findEnvironment>>>;

type EnvironmentData = { name?: string; values?: string; secrets?: string | null; secretNames?: string; servers?: string };

export function insertEnvironment({ data }: { data: EnvironmentData & { workspaceId: string; name: string } }) {
  return prisma.environment.create({ data });
}

export function updateEnvironment({ id, data }: { id: string; data: EnvironmentData }) {
  return prisma.environment.update({ where: { id }, data });
}

export function deleteEnvironment({ id }: { id: string }) {
  return prisma.environment.delete({ where: { id } });
}

// Runs

const stepsInclude = { steps: { orderBy: { index: "asc" as const } } };

export function insertRun({
  data,
  steps,
}: {
  data: { workspaceId: string; collectionId: string; collectionName: string; environmentName: string | null; origin: string; stopOnFailure: boolean; startedById: string; startedByName: string; instanceId: string; variables: string; total: number; monitorId?: string | null };
  steps: { index: number; stepId: string; label: string }[];
}) {
  return prisma.collectionRun.create({
    data: { ...data, status: "running", steps: { create: steps.map((s) => ({ ...s, status: "pending" })) } },
    include: stepsInclude,
  });
}

export function findRun({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.collectionRun.findFirst({ where: { workspaceId, id }, include: stepsInclude });
}

export type RunRow = NonNullable<Awaited<ReturnType<typeof findRun>>>;

export function listRuns({ workspaceId, collectionId, limit }: { workspaceId: string; collectionId: string; limit: number }) {
  return prisma.collectionRun.findMany({ where: { workspaceId, collectionId }, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: limit });
}

export function listMonitorRuns({ workspaceId, monitorId, limit }: { workspaceId: string; monitorId: string; limit: number }) {
  return prisma.collectionRun.findMany({ where: { workspaceId, monitorId }, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: limit, include: stepsInclude });
}

export function updateRunStep({ runId, index, data }: { runId: string; index: number; data: { status: string; callId?: string | null; durationMs?: number | null; error?: string | null; assertions?: string } }) {
  return prisma.collectionRunStep.update({ where: { runId_index: { runId, index } }, data });
}

export function skipRemainingSteps({ runId, from }: { runId: string; from: number }) {
  return prisma.collectionRunStep.updateMany({ where: { runId, index: { gte: from }, status: "pending" }, data: { status: "skipped" } });
}

export function updateRun({ id, data }: { id: string; data: { status?: string; passed?: number; failed?: number; finishedAt?: Date } }) {
  return prisma.collectionRun.update({ where: { id }, data });
}
