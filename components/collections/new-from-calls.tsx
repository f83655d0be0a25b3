"use client";

import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import { api } from "@/lib/core/api-client";
import type { CallDto } from "@/lib/domains/calls";
import { useCreateCollection } from "@/lib/domains/collections/hooks";
import { stepFromCall } from "./step-from-call";

/** Loads the calls (history lists only previews of their arguments), oldest first as they were made. */
export async function loadCalls(ids: string[]): Promise<CallDto[]> {
  const calls = await Promise.all(ids.map((id) => api<{ call: CallDto }>(`/calls/${encodeURIComponent(id)}`).then((r) => r.call)));
  return calls.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/** History's "New collection": the ticked calls become its steps, and the collection opens. */
export function NewCollectionFromCalls({ callIds }: { callIds: string[] }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [loading, setLoading] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const create = useCreateCollection();
  const router = useRouter();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setLoading(null);
    setBusy(true);
    try {
      const steps = (await loadCalls(callIds)).map(stepFromCall);
      const collection = await create.mutateAsync({ name: name.trim(), steps });
      router.push(`/collections/${collection.id}`);
    } catch (err) {
      setLoading(err);
      setBusy(false);
    }
  }

  return (
    <>
      <RoleGate min="member">
        <Button size="sm" disabled={callIds.length === 0} onClick={() => setOpen(true)}>
          New collection
        </Button>
      </RoleGate>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="New collection from these calls"
        description={`${callIds.length} step${callIds.length === 1 ? "" : "s"}, in the order the calls were made, each expecting the status its call had.`}
      >
        <form onSubmit={submit} className="flex flex-col gap-3">
          <Field label="Collection name" required>
            {(props) => <Input {...props} data-autofocus value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <ErrorAlert error={loading} title="Could not create the collection" />
          <div className="flex justify-end gap-2">
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button type="submit" variant="primary" busy={busy} disabled={!name.trim()}>
              Create collection
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
