import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { NoteBodySchema } from "@/lib/domains/reviews/schemas";
import { addNote, listNotes } from "@/lib/domains/reviews/server";

export const runtime = "nodejs";

// GET /api/v1/calls/:id/notes – the call's notes, oldest first
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ items: await listNotes(principal, params.id) }));

// POST /api/v1/calls/:id/notes – add a note (author and time recorded)
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const { body } = await parseBody(request, NoteBodySchema);
  return new Reply({ note: await addNote(principal, params.id, body) }, 201);
});
