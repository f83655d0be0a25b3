"use client";

import { useState } from "react";
import { Markdown } from "@/components/calls/markdown";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RoleGate } from "@/components/ui/role-gate";
import { useCan, useMe } from "@/lib/identity/auth/hooks";
import type { NoteDto } from "@/lib/domains/reviews";
import { useDeleteNote, useEditNote } from "@/lib/domains/reviews/hooks";
import { NoteForm } from "./note-form";
import { RelativeTime } from "./relative-time";

/** One note: author, when, text; Edit for its author, Delete for its author and for admins. */
export function NoteItem({ note }: { note: NoteDto }) {
  const me = useMe();
  const admin = useCan("admin").allowed;
  const own = me.data?.user.id !== undefined && me.data.user.id === note.author.id;
  const edit = useEditNote(note.callId);
  const remove = useDeleteNote(note.callId);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);

  return (
    <li aria-label={`Note by ${note.author.name ?? "a former member"}`} className="flex flex-col gap-1 rounded-md border p-3">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="font-medium">{note.author.name ?? "a former member"}</span>
        <RelativeTime iso={note.createdAt} className="text-muted" />
        {note.edited && (
          <span className="text-muted" title={`Edited ${new Date(note.updatedAt).toLocaleString()}`}>
            (edited)
          </span>
        )}
        {(own || admin) && !editing && (
          <span className="ml-auto flex gap-1">
            {own && (
              <RoleGate min="member">
                <Button size="sm" variant="ghost" onClick={() => setEditing(true)}>
                  Edit
                </Button>
              </RoleGate>
            )}
            <RoleGate min="member">
              <Button size="sm" variant="ghost" onClick={() => setConfirming(true)}>
                Delete
              </Button>
            </RoleGate>
          </span>
        )}
      </div>
      {editing ? (
        <NoteForm
          label="Edit note"
          initial={note.body}
          submitLabel="Save"
          busy={edit.isPending}
          error={edit.error}
          onCancel={() => {
            edit.reset();
            setEditing(false);
          }}
          onSubmit={(body) => edit.mutate({ id: note.id, body }, { onSuccess: () => setEditing(false) })}
        />
      ) : (
        <div className="break-words" data-testid="note-body">
          <Markdown text={note.body} />
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() => remove.mutate(note.id, { onSuccess: () => setConfirming(false) })}
        title="Delete this note?"
        description={own ? "It is removed for everybody in the workspace." : `It was written by ${note.author.name ?? "a former member"}; it is removed for everybody.`}
        confirmLabel="Delete note"
        busy={remove.isPending}
        error={<ErrorAlert error={remove.error} />}
      />
    </li>
  );
}
