"use client";

import { useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, Textarea } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import { Skeleton } from "@/components/ui/spinner";
import type { EnvironmentDto } from "@/lib/domains/collections";
import { useCreateEnvironment, useDeleteEnvironment, useEnvironments, useUpdateEnvironment } from "@/lib/domains/collections/hooks";
import { ServerAliases } from "./server-aliases";

/** Environments: values, write-only secrets (names only), and server aliases; admins change them. */
export function EnvironmentsSettings() {
  const environments = useEnvironments();
  if (environments.isPending) return <Skeleton className="h-32 w-full" />;
  if (environments.error) return <ErrorAlert error={environments.error} title="Could not load environments" />;
  return (
    <div className="flex flex-col gap-4">
      <RoleGate min="admin" hide>
        <NewEnvironment />
      </RoleGate>
      {environments.data.length === 0 ? (
        <EmptyState title="No environments yet">An admin can add one; a run then picks it to fill variables and point steps at its servers.</EmptyState>
      ) : (
        environments.data.map((env) => <EnvironmentCard key={env.id} env={env} />)
      )}
    </div>
  );
}

function NewEnvironment() {
  const create = useCreateEnvironment();
  const [name, setName] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ name: name.trim() }, { onSuccess: () => setName("") });
  }
  return (
    <form onSubmit={submit} aria-label="New environment" className="flex flex-wrap items-end gap-2">
      <Field label="Environment name" className="w-64">
        {(props) => <Input {...props} placeholder="staging" value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Button type="submit" variant="primary" busy={create.isPending} disabled={!name.trim()}>
        Add environment
      </Button>
      <ErrorAlert error={create.error} title="Could not add the environment" className="basis-full" />
    </form>
  );
}

function EnvironmentCard({ env }: { env: EnvironmentDto }) {
  const update = useUpdateEnvironment(env.id);
  const remove = useDeleteEnvironment();
  const [values, setValues] = useState(JSON.stringify(env.values, null, 2));
  const [servers, setServers] = useState(Object.entries(env.servers).map(([alias, serverId]) => ({ alias, serverId })));
  const [secretName, setSecretName] = useState("");
  const [secretValue, setSecretValue] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  function save() {
    setProblem(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(values || "{}");
    } catch {
      return setProblem("The values are not valid JSON.");
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return setProblem("The values must be a JSON object of names and values.");
    const map = Object.fromEntries(servers.filter((s) => s.alias.trim() && s.serverId).map((s) => [s.alias.trim(), s.serverId]));
    update.mutate({ values: parsed as Record<string, unknown>, servers: map });
  }

  function setSecret(event: FormEvent) {
    event.preventDefault();
    update.mutate({ secrets: { [secretName.trim()]: secretValue } }, { onSuccess: () => (setSecretName(""), setSecretValue("")) });
  }

  return (
    <section aria-label={`Environment ${env.name}`} className="flex flex-col gap-3 rounded-md border p-3">
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-semibold">{env.name}</h2>
        <RoleGate min="admin" hide>
          <Button size="sm" variant="ghost" onClick={() => setDeleting(true)}>
            Delete {env.name}
          </Button>
        </RoleGate>
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Field label={`Values of ${env.name}`} hint="A JSON object: each name is a {{variable}} in the steps">
          {(props) => <Textarea {...props} rows={6} value={values} onChange={(e) => setValues(e.target.value)} />}
        </Field>
        <ServerAliases envName={env.name} rows={servers} onChange={setServers} />
      </div>
      {problem && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {problem}
        </p>
      )}
      <ErrorAlert error={update.error} title="Could not save the environment" />
      <RoleGate min="admin">
        <Button size="sm" variant="primary" className="self-start" busy={update.isPending} onClick={save}>
          Save {env.name}
        </Button>
      </RoleGate>
      <div className="flex flex-col gap-2 border-t pt-3">
        <h3 className="text-xs font-medium">Secrets</h3>
        <p className="text-xs text-muted">Write-only: used as variables in runs, never shown or exported.</p>
        {env.secretNames.length === 0 ? (
          <p className="text-xs text-muted">None.</p>
        ) : (
          <ul aria-label={`Secrets of ${env.name}`} className="flex flex-wrap gap-1.5">
            {env.secretNames.map((name) => (
              <li key={name} className="flex items-center gap-1">
                <Badge>{name}</Badge>
                <RoleGate min="admin" hide>
                  <Button size="sm" variant="ghost" aria-label={`Remove secret ${name}`} onClick={() => update.mutate({ secrets: { [name]: null } })}>
                    ×
                  </Button>
                </RoleGate>
              </li>
            ))}
          </ul>
        )}
        <RoleGate min="admin" hide>
          <form onSubmit={setSecret} aria-label={`Set a secret of ${env.name}`} className="flex flex-wrap items-end gap-2">
            <Field label="Secret name" className="w-48">
              {(props) => <Input {...props} value={secretName} onChange={(e) => setSecretName(e.target.value)} />}
            </Field>
            <Field label="Secret value" className="w-64">
              {(props) => <Input {...props} type="password" autoComplete="off" value={secretValue} onChange={(e) => setSecretValue(e.target.value)} />}
            </Field>
            <Button type="submit" disabled={!secretName.trim() || !secretValue} busy={update.isPending}>
              Set secret
            </Button>
          </form>
        </RoleGate>
      </div>
      <ConfirmDialog
        open={deleting}
        title={`Delete the environment ${env.name}?`}
        description="Runs that name it will fail to start."
        confirmLabel="Delete environment"
        busy={remove.isPending}
        error={<ErrorAlert error={remove.error} />}
        onClose={() => setDeleting(false)}
        onConfirm={() => remove.mutate(env.id, { onSuccess: () => setDeleting(false) })}
      />
    </section>
  );
}
