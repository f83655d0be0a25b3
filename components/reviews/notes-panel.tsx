"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { RoleGate } from "@/components/ui/role-gate";
import { Skeleton } from "@/components/ui/spinner";
import { useAddNote, useNotes } from "@/lib/domains/reviews/hooks";
import { NoteForm } from "./note-form";
import { NoteItem } from "./note-item";

/** A call's notes, oldest first, and a box to add one (members and above). */
export function NotesPanel({ callId }: { callId: string }) {
  const notes = useNotes(callId);
  const add = useAddNote(callId);
  // A new key empties the form once a note is saved.
  const [formKey, setFormKey] = useState(0);

  return (
    <section aria-label="Notes" className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold">
        Notes{notes.data?.length ? <span className="ml-1 font-normal text-muted">({notes.data.length})</span> : null}
      </h2>
      {notes.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : notes.error ? (
        <ErrorAlert error={notes.error} title="Could not load the notes" />
      ) : notes.data.length ? (
        <ul className="flex flex-col gap-2">
          {notes.data.map((note) => (
            <NoteItem key={note.id} note={note} />
          ))}
        </ul>
      ) : (
        <p className="text-xs text-muted">No notes yet. Write down what you noticed, for whoever looks at this call next.</p>
      )}
      <RoleGate min="member">
        <NoteForm
          key={formKey}
          label="New note"
          submitLabel="Add note"
          busy={add.isPending}
          error={add.error}
          onSubmit={(body) => add.mutate(body, { onSuccess: () => setFormKey((k) => k + 1) })}
        />
      </RoleGate>
    </section>
  );
}
