import { prisma, isUniqueViolation } from "@/lib/core/db/client";

/** The call, if it is in the workspace (notes, tags and stars hang off it). */
export function findCallRef({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.call.findFirst({ where: { workspaceId, id }, select: { id: true } });
}

// Notes

export function listNotes({ workspaceId, callId }: { workspaceId: string; callId: string }) {
  return prisma.callNote.findMany({ where: { workspaceId, callId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

export function insertNote({ data }: { data: { workspaceId: string; callId: string; userId: string; userName: string; body: string } }) {
  return prisma.callNote.create({ data });
}

export function findNote({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.callNote.findFirst({ where: { workspaceId, id } });
}

export function updateNote({ id, body }: { id: string; body: string }) {
  return prisma.callNote.update({ where: { id }, data: { body } });
}

export function deleteNote({ id }: { id: string }) {
  return prisma.callNote.delete({ where: { id } });
}

export type NoteRow = Awaited<ReturnType<typeof insertNote>>;

// Tags

/** Replaces a call's tags with `tags` (already normalised), keeping the rows that stay. */
export async function replaceTags({ workspaceId, callId, tags, userId }: { workspaceId: string; callId: string; tags: string[]; userId: string }) {
  return prisma.$transaction(async (tx) => {
    const existing = new Set((await tx.callTag.findMany({ where: { callId }, select: { tag: true } })).map((r) => r.tag));
    await tx.callTag.deleteMany({ where: { callId, tag: { notIn: tags } } });
    const added = tags.filter((t) => !existing.has(t));
    if (added.length) await tx.callTag.createMany({ data: added.map((tag) => ({ callId, tag, workspaceId, createdBy: userId })) });
    return tx.callTag.findMany({ where: { callId }, select: { tag: true }, orderBy: { tag: "asc" } });
  });
}

/** Every tag of the workspace with how many calls carry it, most used first. */
export function countTags({ workspaceId }: { workspaceId: string }) {
  return prisma.callTag.groupBy({
    by: ["tag"],
    where: { workspaceId },
    _count: { _all: true },
    orderBy: [{ _count: { tag: "desc" } }, { tag: "asc" }],
  });
}

// Stars

export function star({ workspaceId, userId, callId }: { workspaceId: string; userId: string; callId: string }) {
  return prisma.callStar.upsert({
    where: { userId_callId: { userId, callId } },
    create: { userId, callId, workspaceId },
    update: {},
    select: { callId: true },
  });
}

export function unstar({ userId, callId }: { userId: string; callId: string }) {
  return prisma.callStar.deleteMany({ where: { userId, callId } });
}

// Saved views

export function listViews({ workspaceId }: { workspaceId: string }) {
  return prisma.savedView.findMany({ where: { workspaceId }, orderBy: { name: "asc" } });
}

/** The new view, or null when the workspace has a view of that name already. */
export async function insertView({ data }: { data: { workspaceId: string; name: string; filters: string; createdBy: string; createdByName: string } }) {
  try {
    return await prisma.savedView.create({ data });
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

export function findView({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.savedView.findFirst({ where: { workspaceId, id } });
}

export function deleteView({ id }: { id: string }) {
  return prisma.savedView.delete({ where: { id } });
}

export type ViewRow = NonNullable<Awaited<ReturnType<typeof insertView>>>;
