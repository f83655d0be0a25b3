"use client";

import { useRef, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import { isApiError } from "@/lib/core/api-client";
import type { CollectionFile } from "@/lib/domains/collections";
import { useImportCollection } from "@/lib/domains/collections/hooks";

/** The free name the API suggests when the file's name is taken (409 `details.suggestion`). */
function suggestedName(err: unknown): string | null {
  if (!isApiError(err, "conflict")) return null;
  const suggestion = (err.details as { suggestion?: unknown } | undefined)?.suggestion;
  return typeof suggestion === "string" ? suggestion : null;
}

/** Import from a collection file (the export format); a taken name offers a new one; the new collection opens. */
export function ImportCollectionButton() {
  const input = useRef<HTMLInputElement>(null);
  const importing = useImportCollection();
  const router = useRouter();
  const [problem, setProblem] = useState<string | null>(null);
  // `taken`: the new name tried last, itself taken.
  const [renaming, setRenaming] = useState<{ file: CollectionFile; name: string; taken?: string } | null>(null);

  const send = (file: CollectionFile, name?: string) =>
    importing.mutate(
      { file, name },
      {
        onSuccess: (collection) => router.push(`/collections/${collection.id}`),
        onError: (err) => {
          const suggestion = suggestedName(err);
          if (suggestion) setRenaming({ file, name: suggestion, taken: name });
        },
      },
    );

  async function onFile(file: File | undefined) {
    if (!file) return;
    setProblem(null);
    try {
      send(JSON.parse(await file.text()) as CollectionFile);
    } catch {
      setProblem(`${file.name} is not JSON. Choose a file exported from a collection.`);
    }
  }

  function rename(event: FormEvent) {
    event.preventDefault();
    if (renaming?.name.trim()) send(renaming.file, renaming.name.trim());
  }

  return (
    <>
      <RoleGate min="member">
        <Button busy={importing.isPending && !renaming} onClick={() => input.current?.click()}>
          Import…
        </Button>
      </RoleGate>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        aria-label="Collection file to import"
        className="sr-only"
        tabIndex={-1}
        onChange={(e) => {
          void onFile(e.target.files?.[0]);
          e.target.value = "";
        }}
      />
      {problem && <Alert className="basis-full">{problem}</Alert>}
      {!renaming && <ErrorAlert error={importing.error} title="Could not import the collection" className="basis-full" />}
      <Dialog
        open={renaming !== null}
        onClose={() => {
          setRenaming(null);
          importing.reset();
        }}
        title="Import under another name"
        description={renaming ? `A collection named “${renaming.file.name}” exists already. Import this file under a new name:` : undefined}
      >
        {renaming && (
          <form onSubmit={rename} className="flex flex-col gap-3">
            <Field label="Name" required>
              {(props) => <Input {...props} data-autofocus value={renaming.name} onChange={(e) => setRenaming({ ...renaming, name: e.target.value })} />}
            </Field>
            {suggestedName(importing.error) === null && <ErrorAlert error={importing.error} title="Could not import the collection" />}
            {renaming.taken && <Alert tone="error">“{renaming.taken}” is taken too.</Alert>}
            <div className="flex justify-end gap-2">
              <Button onClick={() => setRenaming(null)}>Cancel</Button>
              <Button type="submit" variant="primary" busy={importing.isPending} disabled={!renaming.name.trim()}>
                Import
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
