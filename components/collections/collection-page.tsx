"use client";

import { Suspense, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, Input } from "@/components/ui/field";
import { JsonEditor } from "@/components/ui/json-editor";
import { RoleGate } from "@/components/ui/role-gate";
import { Skeleton } from "@/components/ui/spinner";
import { isApiError } from "@/lib/core/api-client";
import { useMe } from "@/lib/identity/auth/hooks";
import type { CollectionDto } from "@/lib/domains/collections";
import { collectionExportUrl, useCollection, useDeleteCollection, useUpdateCollection } from "@/lib/domains/collections/hooks";
import { useWorkspaceId } from "@/lib/team/workspaces/hooks";
import { useRunChoices } from "./run-choices";
import { RecentRuns, RunPanel } from "./run-panel";
import { StepList } from "./step-list";

/** One collection: its name, run controls, steps, variables and recent runs. */
export function CollectionPage({ id }: { id: string }) {
  const collection = useCollection(id);
  if (collection.isPending) {
    return (
      <div className="flex flex-col gap-3 p-6">
        <Skeleton className="h-6 w-64" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (collection.isError) {
    return (
      <div className="p-6">
        {isApiError(collection.error, "not_found") ? (
          <Alert title="Collection not found">It was deleted, or it belongs to another workspace.</Alert>
        ) : (
          <ErrorAlert error={collection.error} title="Could not load the collection" />
        )}
      </div>
    );
  }
  return <CollectionView collection={collection.data} />;
}

function CollectionView({ collection: c }: { collection: CollectionDto }) {
  const choices = useRunChoices(c.id);
  return (
    <div className="flex flex-col gap-5 p-6">
      <Header collection={c} />
      <AuthorNote collection={c} />
      <RunPanel collection={c} choices={choices} />
      <div className="grid grid-cols-1 gap-5 xl:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
        <StepList collection={c} environment={choices.environment || undefined} />
        <div className="flex flex-col gap-5">
          <Suspense>
            <RecentRuns collectionId={c.id} />
          </Suspense>
          <Variables key={JSON.stringify(c.variables)} collection={c} />
        </div>
      </div>
    </div>
  );
}

/** Members change only the collections they made (the API says the same); say so before they try. */
function AuthorNote({ collection: c }: { collection: CollectionDto }) {
  const me = useMe();
  const role = me.data?.role;
  if (!me.data || role !== "member" || c.createdBy?.id === me.data.user.id) return null;
  return (
    <Alert tone="info" title="Read-only for you">
      {c.createdBy ? `${c.createdBy.name} made this collection: ` : ""}only its author and admins can change it. You can run it.
    </Alert>
  );
}

function Header({ collection: c }: { collection: CollectionDto }) {
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteCollection();
  const router = useRouter();
  const workspaceId = useWorkspaceId();

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="text-xs text-muted">Collection</p>
          <h1 className="truncate text-lg font-semibold tracking-tight">{c.name}</h1>
          {c.description && <p className="text-sm text-muted">{c.description}</p>}
          <p className="text-xs text-muted">{c.createdBy ? `Made by ${c.createdBy.name}` : null}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <a href={collectionExportUrl(c.id, workspaceId)} download className={buttonClasses()}>
            Export
          </a>
          <RoleGate min="member">
            <Button onClick={() => router.push(`/monitors?new=${encodeURIComponent(c.id)}`)}>Monitor this collection</Button>
          </RoleGate>
          <RoleGate min="member">
            <Button onClick={() => setRenaming(!renaming)} aria-expanded={renaming}>
              Rename
            </Button>
          </RoleGate>
          <RoleGate min="member">
            <Button variant="danger" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          </RoleGate>
        </div>
      </div>
      {renaming && <RenameForm collection={c} onDone={() => setRenaming(false)} />}
      <ConfirmDialog
        open={deleting}
        title={`Delete ${c.name}?`}
        description="The collection and its steps go; its runs and their calls stay in history."
        confirmLabel="Delete collection"
        busy={remove.isPending}
        error={<ErrorAlert error={remove.error} />}
        onClose={() => setDeleting(false)}
        onConfirm={() => remove.mutate(c.id, { onSuccess: () => router.push("/collections") })}
      />
    </div>
  );
}

function RenameForm({ collection: c, onDone }: { collection: CollectionDto; onDone: () => void }) {
  const update = useUpdateCollection(c.id);
  const [name, setName] = useState(c.name);
  const [description, setDescription] = useState(c.description ?? "");
  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate({ name: name.trim(), description: description.trim() || null }, { onSuccess: onDone });
  }
  return (
    <form onSubmit={submit} aria-label="Rename" className="flex flex-wrap items-end gap-2 rounded-md border p-3">
      <Field label="Name" required className="w-64">
        {(props) => <Input {...props} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Description" className="min-w-64 flex-1">
        {(props) => <Input {...props} value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      <Button type="submit" variant="primary" busy={update.isPending} disabled={!name.trim()}>
        Save
      </Button>
      <Button onClick={onDone}>Cancel</Button>
      <ErrorAlert error={update.error} title="Could not rename" className="basis-full" />
    </form>
  );
}

/** The collection's variables, `{{name}}` in its steps; a run's environment and its own values win over them. */
function Variables({ collection: c }: { collection: CollectionDto }) {
  const update = useUpdateCollection(c.id);
  const [text, setText] = useState(JSON.stringify(c.variables ?? {}, null, 2));
  const [problem, setProblem] = useState<string | null>(null);

  function save() {
    setProblem(null);
    let variables: unknown;
    try {
      variables = JSON.parse(text || "{}");
    } catch {
      return setProblem("The variables are not valid JSON.");
    }
    if (!variables || typeof variables !== "object" || Array.isArray(variables)) return setProblem("The variables must be a JSON object of names and values.");
    update.mutate({ variables: variables as Record<string, unknown> });
  }

  return (
    <section aria-labelledby="variables-heading" className="flex flex-col gap-2">
      <h2 id="variables-heading" className="text-sm font-semibold">
        Variables
      </h2>
      <p className="text-xs text-muted">{"Used as {{name}} in steps; an environment's values and a run's own override them."}</p>
      <JsonEditor label="Collection variables" value={text} onChange={setText} minHeight="5rem" maxHeight="14rem" />
      {problem && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {problem}
        </p>
      )}
      <ErrorAlert error={update.error} title="Could not save the variables" />
      <RoleGate min="member">
        <Button size="sm" className="self-start" busy={update.isPending} onClick={save}>
          Save variables
        </Button>
      </RoleGate>
    </section>
  );
}
