import { prisma } from "@/lib/db/client";
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

const listed = {
  id: true,
  callId: true,
  tokenSecret: true,
  createdBy: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  viewCount: true,
  lastViewedAt: true,
  call: { select: { name: true, method: true, server: { select: { name: true } } } },
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
  return prisma.share.findFirst({ where: { workspaceId, id }, select: { id: true, callId: true, createdBy: true, revokedAt: true, call: { select: { name: true } } } });
}

export async function revokeShare({ workspaceId, id }: { workspaceId: string; id: string }) {
  const { count } = await prisma.share.updateMany({ where: { workspaceId, id, revokedAt: null }, data: { revokedAt: new Date() } });
  return count > 0;
}

/** The share behind a token, with its workspace's sharing settings and the call's public source. */
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
    },
  });
}

/** Just enough to tell whether a token's page is gone (no view counted). */
export function findShareState({ tokenHash }: { tokenHash: string }) {
  return prisma.share.findUnique({
    where: { tokenHash },
    select: { expiresAt: true, revokedAt: true, workspace: { select: { publicSharesEnabled: true } } },
  });
}

export function countView({ id }: { id: string }) {
  return prisma.share.update({ where: { id }, data: { viewCount: { increment: 1 }, lastViewedAt: new Date() }, select: { id: true } });
}

export function findUserNames({ ids }: { ids: string[] }) {
  return prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

export type ListedShareRow = Awaited<ReturnType<typeof insertShare>>;
