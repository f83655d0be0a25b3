import "server-only";
import { assertOwnOrAdmin, type Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import type { CreateView, NoteDto, SavedViewDto, TagCount, ViewFilters } from "./index";
import * as q from "./queries";

async function requireCall(principal: Principal, callId: string): Promise<void> {
  if (!(await q.findCallRef({ workspaceId: principal.workspaceId, id: callId }))) throw notFound("Call");
}

/** A note's words stay its author's: only the author edits it. */
function ownOnly(principal: Principal, authorId: string | null): void {
  if (authorId !== null && authorId === principal.userId) return;
  throw new SwitchboardError("forbidden", "Only the note's author can edit it");
}

function toNoteDto(row: q.NoteRow): NoteDto {
  return {
    id: row.id,
    callId: row.callId,
    body: row.body,
    author: { id: row.userId, name: row.userName },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    edited: row.updatedAt.getTime() > row.createdAt.getTime(),
  };
}

/** A call's notes, oldest first. */
export async function listNotes(principal: Principal, callId: string): Promise<NoteDto[]> {
  await requireCall(principal, callId);
  return (await q.listNotes({ workspaceId: principal.workspaceId, callId })).map(toNoteDto);
}

/** Adds a note to a call; who wrote it and when are recorded with it. */
export async function addNote(principal: Principal, callId: string, body: string): Promise<NoteDto> {
  await requireCall(principal, callId);
  const row = await q.insertNote({ data: { workspaceId: principal.workspaceId, callId, userId: principal.userId, userName: principal.userName, body } });
  return toNoteDto(row);
}

export async function editNote(principal: Principal, id: string, body: string): Promise<NoteDto> {
  const note = await q.findNote({ workspaceId: principal.workspaceId, id });
  if (!note) throw notFound("Note");
  ownOnly(principal, note.userId);
  return toNoteDto(await q.updateNote({ id, body }));
}

export async function deleteNote(principal: Principal, id: string): Promise<void> {
  const note = await q.findNote({ workspaceId: principal.workspaceId, id });
  if (!note) throw notFound("Note");
  assertOwnOrAdmin(principal, note.userId, "note");
  await q.deleteNote({ id });
}

/** Replaces a call's tag set with `tags` (normalised by SetTagsSchema). */
export async function setTags(principal: Principal, callId: string, tags: string[]): Promise<string[]> {
  await requireCall(principal, callId);
  const rows = await q.replaceTags({ workspaceId: principal.workspaceId, callId, tags, userId: principal.userId });
  return rows.map((r) => r.tag);
}

/** The workspace's tags with their call counts, most used first (autocomplete and filters). */
export async function listTags(principal: Principal): Promise<TagCount[]> {
  return (await q.countTags({ workspaceId: principal.workspaceId })).map((r) => ({ tag: r.tag, count: r._count._all }));
}

/** Stars or unstars a call for the caller alone. */
export async function setStar(principal: Principal, callId: string, starred: boolean): Promise<{ starred: boolean }> {
  await requireCall(principal, callId);
  if (starred) await q.star({ workspaceId: principal.workspaceId, userId: principal.userId, callId });
  else await q.unstar({ userId: principal.userId, callId });
  return { starred };
}

function toViewDto(row: q.ViewRow): SavedViewDto {
  return {
    id: row.id,
    name: row.name,
    filters: JSON.parse(row.filters) as ViewFilters,
    createdBy: { id: row.createdBy, name: row.createdByName },
    createdAt: row.createdAt.toISOString(),
  };
}

/** The workspace's saved history views, by name. */
export async function listViews(principal: Principal): Promise<SavedViewDto[]> {
  return (await q.listViews({ workspaceId: principal.workspaceId })).map(toViewDto);
}

/** Saves a named filter set for the whole workspace; names are unique per workspace (409). */
export async function createView(principal: Principal, input: CreateView): Promise<SavedViewDto> {
  const row = await q.insertView({
    data: { workspaceId: principal.workspaceId, name: input.name, filters: JSON.stringify(input.filters), createdBy: principal.userId, createdByName: principal.userName },
  });
  if (!row) throw new SwitchboardError("conflict", `A view named "${input.name}" exists already`);
  await audit(principal, { action: "view.created", target: { type: "view", id: row.id, name: row.name }, details: { filters: Object.keys(input.filters) } });
  return toViewDto(row);
}

export async function deleteView(principal: Principal, id: string): Promise<void> {
  const view = await q.findView({ workspaceId: principal.workspaceId, id });
  if (!view) throw notFound("View");
  assertOwnOrAdmin(principal, view.createdBy, "view");
  await q.deleteView({ id });
  await audit(principal, { action: "view.deleted", target: { type: "view", id: view.id, name: view.name }, details: { filters: Object.keys(JSON.parse(view.filters) as object) } });
}
