import { parseBody, withWorkspace } from "@/lib/api/route";
import { NoteBodySchema } from "@/lib/domains/reviews/schemas";
import { deleteNote, editNote } from "@/lib/domains/reviews/server";

export const runtime = "nodejs";

// PATCH /api/v1/notes/:id – edit a note's text (its author, or an admin)
export const PATCH = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const { body } = await parseBody(request, NoteBodySchema);
  return { note: await editNote(principal, params.id, body) };
});

// DELETE /api/v1/notes/:id – delete a note (its author, or an admin)
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await deleteNote(principal, params.id);
});
