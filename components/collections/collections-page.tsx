"use client";

import { useState, type FormEvent } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import { formatTime } from "@/components/calls/format";
import { useCollections, useCreateCollection } from "@/lib/domains/collections/hooks";
import { ImportCollectionButton } from "./import-collection";
import { RunStatusBadge } from "./run-status-badge";

/** The workspace's collections with their last run; New and Import from a JSON file. */
export function CollectionsPage() {
  const collections = useCollections();
  const [creating, setCreating] = useState(false);

  const actions = (
    <div className="flex flex-wrap items-center gap-2">
      <ImportCollectionButton />
      <RoleGate min="member">
        <Button variant="primary" onClick={() => setCreating(true)}>
          New collection
        </Button>
      </RoleGate>
    </div>
  );

  return (
    <div className="flex flex-col gap-4">
      {actions}
      <NewCollectionDialog open={creating} onClose={() => setCreating(false)} />
      {collections.isPending ? (
        <div className="flex flex-col gap-2">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      ) : collections.error ? (
        <ErrorAlert error={collections.error} title="Could not load collections" />
      ) : collections.data.length === 0 ? (
        <EmptyState title="No collections yet">
          A collection is an ordered list of calls with assertions, run together. Start one here, or tick calls in the history and choose New collection.
        </EmptyState>
      ) : (
        <Table columns={["Name", { name: "Steps", align: "right" }, "Last run", "Updated"]} aria-label="Collections">
          {collections.data.map((c) => (
            <Row key={c.id} hover>
              <Cell>
                <Link href={`/collections/${c.id}`} className="font-medium text-accent hover:underline">
                  {c.name}
                </Link>
                {c.description && <p className="text-xs text-muted">{c.description}</p>}
              </Cell>
              <Cell label="Steps" className="text-right tabular-nums">
                {c.steps.length}
              </Cell>
              <Cell label="Last run">
                {c.lastRun ? (
                  <Link href={`/runs/${c.lastRun.id}`} className="inline-flex items-center gap-2 hover:underline">
                    <RunStatusBadge status={c.lastRun.status} />
                    <time dateTime={c.lastRun.startedAt} className="text-xs text-muted">
                      {formatTime(c.lastRun.startedAt, true)}
                    </time>
                  </Link>
                ) : (
                  <span className="text-xs text-muted">never run</span>
                )}
              </Cell>
              <Cell label="Updated" className="text-xs text-muted">
                <time dateTime={c.updatedAt}>{formatTime(c.updatedAt, true)}</time>
              </Cell>
            </Row>
          ))}
        </Table>
      )}
    </div>
  );
}

function NewCollectionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateCollection();
  const router = useRouter();
  const [name, setName] = useState("");

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ name: name.trim(), steps: [] }, { onSuccess: (collection) => router.push(`/collections/${collection.id}`) });
  }

  return (
    <Dialog open={open} onClose={onClose} title="New collection">
      <form onSubmit={submit} className="flex flex-col gap-3">
        <Field label="Name" required>
          {(props) => <Input {...props} data-autofocus value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <ErrorAlert error={create.error} title="Could not create the collection" />
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={create.isPending} disabled={!name.trim()}>
            Create
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
