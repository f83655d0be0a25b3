import { prisma } from "@/lib/core/db/client";
import type { Prisma } from "@prisma/client";

const shareSource = {
  workspaceId: true,
  serverId: true,
  method: true,
  name: true,
  status: true,
  isError: true,
  origin: true,
  params: true,
  result: true,
  error: true,
  startedAt: true,
  finishedAt: true,
  durationMs: true,
  requestSize: true,
  resultSize: true,
  server: { select: { name: true, url: true, kind: true } },
} satisfies Prisma.CallSelect;

const sharingSettings = { publicSharesEnabled: true, redactionKeys: true } satisfies Prisma.WorkspaceSelect;

/** A call with what its public view is built from. */
export function findCallForShare({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.call.findFirst({ where: { workspaceId, id }, select: { id: true, ...shareSource } });
}

export function findSharingSettings({ workspaceId }: { workspaceId: string }) {
  return prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: sharingSettings });
}

/** A collection run with what its public view is built from. */
const runSource = {
  workspaceId: true,
  collectionName: true,
  status: true,
  environmentName: true,
  origin: true,
  stopOnFailure: true,
  startedAt: true,
  finishedAt: true,
  passed: true,
  failed: true,
  total: true,
  steps: { orderBy: { index: "asc" }, select: { index: true, label: true, callId: true, status: true, durationMs: true, error: true, assertions: true } },
} satisfies Prisma.CollectionRunSelect;

export function findRunForShare({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.collectionRun.findFirst({ where: { workspaceId, id }, select: { id: true, collectionName: true } });
}

/** The recorded calls of a run's steps: where the values redaction masks in a run's messages come from. */
export function findRunCalls({ workspaceId, ids }: { workspaceId: string; ids: string[] }) {
  return prisma.call.findMany({ where: { workspaceId, id: { in: ids } }, select: { serverId: true, params: true, result: true, error: true } });
}

/** The sealed secret values of the environment a run used (by name: the run keeps only the name). */
export async function findEnvironmentSecrets({ workspaceId, name }: { workspaceId: string; name: string }): Promise<string | null> {
  const row = await prisma.environment.findFirst({ where: { workspaceId, name }, select: { secrets: true } });
  return row?.secrets ?? null;
}

const listed = {
  id: true,
  callId: true,
  runId: true,
  tokenSecret: true,
  createdBy: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  viewCount: true,
  lastViewedAt: true,
  call: { select: { name: true, method: true, server: { select: { name: true } } } },
  run: { select: { collectionName: true, status: true, startedAt: true } },
} satisfies Prisma.ShareSelect;

export function insertShare({ data }: { data: Prisma.ShareUncheckedCreateInput }) {
  return prisma.share.create({ data, select: listed });
}

/** A call's links that still work, newest first. */
export function listActiveCallShares({ workspaceId, callId, now }: { workspaceId: string; callId: string; now: Date }) {
  return prisma.share.findMany({
    where: { workspaceId, callId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: listed,
  });
}

/** Every link of a workspace, newest first, keyset-paged on (createdAt, id). */
export async function listShares({ workspaceId, cursor, limit }: { workspaceId: string; cursor?: string; limit: number }) {
  const rows = await prisma.share.findMany({
    where: { workspaceId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    select: listed,
  });
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? items[items.length - 1]!.id : null };
}

export function findShare({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.share.findFirst({ where: { workspaceId, id }, select: { id: true, callId: true, runId: true, createdBy: true, revokedAt: true, call: { select: { name: true } }, run: { select: { collectionName: true } } } });
}

export async function revokeShare({ workspaceId, id }: { workspaceId: string; id: string }) {
  const { count } = await prisma.share.updateMany({ where: { workspaceId, id, revokedAt: null }, data: { revokedAt: new Date() } });
  return count > 0;
}

/** The share behind a token, with its workspace's sharing settings and the call's or run's public source. */
export function findShareByToken({ tokenHash }: { tokenHash: string }) {
  return prisma.share.findUnique({
    where: { tokenHash },
    select: {
      id: true,
      createdAt: true,
      expiresAt: true,
      revokedAt: true,
      workspace: { select: sharingSettings },
      call: { select: shareSource },
      run: { select: runSource },
    },
  });
}

export function findUserNames({ ids }: { ids: string[] }) {
  return prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

export type ListedShareRow = Awaited<ReturnType<typeof insertShare>>;
export type RunShareSource = NonNullable<NonNullable<Awaited<ReturnType<typeof findShareByToken>>>["run"]>;
