"use client";

import { useState, type FormEvent } from "react";
import Link from "next/link";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import type { CallDto } from "@/lib/domains/calls";
import type { CollectionDto } from "@/lib/domains/collections";
import { useAddStep, useCollections, useCreateCollection } from "@/lib/domains/collections/hooks";
import { stepFromCall } from "./step-from-call";

const NEW = "__new";

/** "Add to collection" on a call permalink: the call becomes the last step of an existing collection or of a new one. */
export function AddToCollection({ call }: { call: CallDto }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <RoleGate min="member">
        <Button onClick={() => setOpen(true)}>Add to collection</Button>
      </RoleGate>
      <Dialog open={open} onClose={() => setOpen(false)} title="Add to collection" description="The call becomes a step, with its server, arguments and a status assertion.">
        {open && <AddForm call={call} onClose={() => setOpen(false)} />}
      </Dialog>
    </>
  );
}

function AddForm({ call, onClose }: { call: CallDto; onClose: () => void }) {
  const collections = useCollections();
  const add = useAddStep();
  const create = useCreateCollection();
  const [target, setTarget] = useState("");
  const [name, setName] = useState("");
  const [done, setDone] = useState<CollectionDto | null>(null);
  const choice = target || (collections.data?.length ? collections.data[0]!.id : NEW);

  function submit(event: FormEvent) {
    event.preventDefault();
    const step = stepFromCall(call);
    if (choice === NEW) create.mutate({ name: name.trim(), steps: [step] }, { onSuccess: setDone });
    else add.mutate({ collectionId: choice, step }, { onSuccess: setDone });
  }

  if (done) {
    return (
      <>
        <Alert tone="success" title="Added">
          Step {done.steps.length} of{" "}
          <Link href={`/collections/${done.id}`} className="underline">
            {done.name}
          </Link>
          .
        </Alert>
        <div className="flex justify-end">
          <Button onClick={onClose}>Close</Button>
        </div>
      </>
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3">
      <Field label="Collection">
        {(props) => (
          <Select {...props} data-autofocus value={choice} onChange={(e) => setTarget(e.target.value)} disabled={collections.isPending}>
            {collections.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({c.steps.length} steps)
              </option>
            ))}
            <option value={NEW}>A new collection…</option>
          </Select>
        )}
      </Field>
      {choice === NEW && (
        <Field label="New collection name" required>
          {(props) => <Input {...props} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
      )}
      <ErrorAlert error={collections.error ?? add.error ?? create.error} title="Could not add the call" />
      <div className="flex justify-end gap-2">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" busy={add.isPending || create.isPending} disabled={choice === NEW && !name.trim()}>
          Add step
        </Button>
      </div>
    </form>
  );
}
