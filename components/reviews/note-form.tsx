"use client";

import { useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/field";
import { NOTE_MAX_LENGTH } from "@/lib/domains/reviews";

interface NoteFormProps {
  label: string;
  initial?: string;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  disabled?: boolean;
  /** Resolve the form (e.g. clear it) in the mutation's onSuccess. */
  onSubmit: (body: string) => void;
  onCancel?: () => void;
}

/** The text box for a new or edited note; Ctrl/⌘+Enter submits. */
export function NoteForm({ label, initial = "", submitLabel, busy, error, disabled, onSubmit, onCancel }: NoteFormProps) {
  const [body, setBody] = useState(initial);
  const text = body.trim();
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (text && text.length <= NOTE_MAX_LENGTH) onSubmit(text);
  };
  return (
    <form onSubmit={submit} className="flex w-full flex-col gap-2">
      <Textarea
        aria-label={label}
        value={body}
        rows={3}
        disabled={disabled}
        placeholder={disabled ? undefined : "What did you notice? Markdown-style text: **bold**, `code`, links."}
        onChange={(e) => setBody(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) submit();
        }}
        className="font-sans text-sm"
      />
      <div className="flex items-center gap-2">
        <Button type="submit" size="sm" variant="primary" busy={busy} disabled={disabled || !text || text.length > NOTE_MAX_LENGTH}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button size="sm" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        )}
        {text.length > NOTE_MAX_LENGTH * 0.9 && (
          <span className="text-xs text-muted">
            {text.length.toLocaleString()} / {NOTE_MAX_LENGTH.toLocaleString()}
          </span>
        )}
      </div>
      <ErrorAlert error={error} />
    </form>
  );
}
