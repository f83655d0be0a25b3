"use client";

import { useId, useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import { normaliseTag, TAG_MAX_LENGTH, TAGS_PER_CALL } from "@/lib/domains/reviews";
import { useSetTags, useTags } from "@/lib/domains/reviews/hooks";
import { chipClasses } from "./tag-chips";

/** A call's tags as removable chips, and an input (Enter or comma adds) suggesting the workspace's tags. */
export function TagEditor({ callId, tags }: { callId: string; tags: string[] }) {
  const setTags = useSetTags(callId);
  const known = useTags();
  const listId = useId();
  const [draft, setDraft] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);

  const save = (next: string[], onSaved?: () => void) => {
    setInvalid(null);
    setTags.mutate(next, { onSuccess: onSaved });
  };
  const add = (event?: FormEvent) => {
    event?.preventDefault();
    const words = draft.split(/[,\s]+/).filter(Boolean);
    if (!words.length) return;
    const bad = words.find((w) => normaliseTag(w) === null);
    if (bad) return setInvalid(`"${bad}" is not a tag: use letters, digits and - _ . : (at most ${TAG_MAX_LENGTH} characters)`);
    const next = [...new Set([...tags, ...words.map((w) => normaliseTag(w)!)])];
    if (next.length > TAGS_PER_CALL) return setInvalid(`A call has at most ${TAGS_PER_CALL} tags`);
    save(next, () => setDraft(""));
  };
  const suggestions = (known.data ?? []).filter((t) => !tags.includes(t.tag)).slice(0, 50);

  return (
    <div className="flex flex-col gap-2">
      <ul aria-label="Current tags" className="flex flex-wrap items-center gap-1">
        {tags.map((tag) => (
          <li key={tag} className={chipClasses}>
            #{tag}
            <RoleGate min="member">
              <button
                type="button"
                aria-label={`Remove tag ${tag}`}
                className="ml-0.5 rounded-full px-1 text-muted hover:bg-line hover:text-fg disabled:cursor-not-allowed"
                onClick={() => save(tags.filter((t) => t !== tag))}
              >
                ×
              </button>
            </RoleGate>
          </li>
        ))}
        {!tags.length && <li className="text-xs text-muted">No tags yet.</li>}
      </ul>
      <form onSubmit={add} className="flex items-center gap-2">
        <RoleGate min="member">
          <Input
            aria-label="Add tag"
            placeholder="add a tag, e.g. regression"
            list={listId}
            value={draft}
            maxLength={400}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === ",") {
                e.preventDefault();
                add();
              }
            }}
            className="w-56"
          />
        </RoleGate>
        <datalist id={listId}>
          {suggestions.map((t) => (
            <option key={t.tag} value={t.tag}>
              {`${t.count} call${t.count === 1 ? "" : "s"}`}
            </option>
          ))}
        </datalist>
        <RoleGate min="member">
          <Button size="sm" type="submit" busy={setTags.isPending} disabled={!draft.trim()}>
            Add tag
          </Button>
        </RoleGate>
      </form>
      {invalid && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {invalid}
        </p>
      )}
      <ErrorAlert error={setTags.error} title="Could not save the tags" />
    </div>
  );
}
