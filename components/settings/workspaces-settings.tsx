"use client";

import { useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { useMe } from "@/lib/identity/auth/hooks";
import { useCreateWorkspace, useSwitchWorkspace } from "@/lib/team/workspaces/hooks";

/** The caller's workspaces: switch between them or create another. */
export function WorkspacesSettings() {
  const me = useMe();
  const create = useCreateWorkspace();
  const switchWorkspace = useSwitchWorkspace();
  const [name, setName] = useState("");

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (name.trim()) create.mutate(name.trim(), { onSuccess: () => setName("") });
  }

  return (
    <section aria-labelledby="workspaces-title" className="flex max-w-4xl flex-col gap-3 rounded-lg border p-4">
      <h2 id="workspaces-title" className="text-sm font-semibold">
        Workspaces
      </h2>
      <ul className="flex flex-col divide-y rounded-md border">
        {me.data?.workspaces.map((w) => (
          <li key={w.id} className="flex items-center gap-3 px-3 py-1.5 text-sm">
            <span className="font-medium">{w.name}</span>
            <Badge>{w.role}</Badge>
            {w.id === me.data?.workspace.id ? (
              <span className="ml-auto text-xs text-muted">current</span>
            ) : (
              <Button size="sm" className="ml-auto" onClick={() => switchWorkspace(w.id)}>
                Switch to {w.name}
              </Button>
            )}
          </li>
        ))}
      </ul>
      <form onSubmit={onSubmit} className="flex items-end gap-2">
        <Field label="Workspace name" className="w-72">
          {(p) => <Input {...p} value={name} placeholder="Staging" onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Button type="submit" busy={create.isPending} disabled={!name.trim()}>
          Create workspace
        </Button>
      </form>
      <ErrorAlert error={create.error} />
    </section>
  );
}
