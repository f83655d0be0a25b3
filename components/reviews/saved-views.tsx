"use client";

import { useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/disabled-reason";
import { cn } from "@/components/ui/cn";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import { useCan, useMe } from "@/lib/identity/auth/hooks";
import type { SavedViewDto, ViewFilters } from "@/lib/domains/reviews";
import { useCreateView, useDeleteView, useViews } from "@/lib/domains/reviews/hooks";

function sameFilters(a: ViewFilters, b: ViewFilters): boolean {
  const keys = Object.keys(a).filter((k) => a[k]);
  return keys.length === Object.keys(b).filter((k) => b[k]).length && keys.every((k) => a[k] === b[k]);
}

/**
 * The workspace's saved history views: one click applies a view (the URL then holds its filters,
 * so it can be shared); the current filters can be saved under a name.
 */
export function SavedViews({ filters, onApply }: { filters: ViewFilters; onApply: (filters: ViewFilters) => void }) {
  const views = useViews();
  const me = useMe();
  const admin = useCan("admin").allowed;
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<SavedViewDto | null>(null);
  const remove = useDeleteView();
  const hasFilters = Object.values(filters).some(Boolean);

  return (
    <section aria-label="Saved views" className="flex flex-wrap items-center gap-1.5 text-xs">
      <h2 className="mr-1 font-medium text-muted">Saved views</h2>
      <ul className="flex flex-wrap items-center gap-1.5">
        {views.data?.map((view) => {
          const active = sameFilters(view.filters, filters);
          return (
            <li key={view.id} className={cn("inline-flex items-center rounded-full border", active ? "border-accent bg-accent/10" : "border-line")}>
              <button
                type="button"
                aria-pressed={active}
                title={`${Object.entries(view.filters).map(([k, v]) => `${k}=${v}`).join(" ") || "no filters"} · saved by ${view.createdBy.name ?? "a former member"}`}
                onClick={() => onApply(view.filters)}
                className="rounded-full px-2.5 py-0.5 font-medium hover:text-accent"
              >
                {view.name}
              </button>
              {(admin || (me.data && view.createdBy.id === me.data.user.id)) && (
                <RoleGate min="member">
                  <button type="button" aria-label={`Delete view ${view.name}`} onClick={() => setDeleting(view)} className="mr-1 rounded-full px-1 text-muted hover:bg-hover hover:text-fg">
                    ×
                  </button>
                </RoleGate>
              )}
            </li>
          );
        })}
        {views.data?.length === 0 && <li className="text-muted">none yet</li>}
      </ul>
      {saving ? (
        <SaveViewForm filters={filters} onDone={() => setSaving(false)} />
      ) : (
        <RoleGate min="member">
          <DisabledReason reason={hasFilters ? null : "Set some filters first"}>
            <Button size="sm" variant="ghost" title="Save the current filters for the whole workspace" onClick={() => setSaving(true)}>
              Save view
            </Button>
          </DisabledReason>
        </RoleGate>
      )}
      <ErrorAlert error={views.error} title="Could not load the saved views" />
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
        title={`Delete the view "${deleting?.name ?? ""}"?`}
        description="It disappears for everybody in the workspace. The calls stay."
        confirmLabel="Delete view"
        busy={remove.isPending}
        error={<ErrorAlert error={remove.error} />}
      />
    </section>
  );
}

function SaveViewForm({ filters, onDone }: { filters: ViewFilters; onDone: () => void }) {
  const create = useCreateView();
  const [name, setName] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate({ name: name.trim(), filters }, { onSuccess: onDone });
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-center gap-1.5">
      <Input aria-label="View name" autoFocus placeholder="e.g. Tuesday's regressions" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} className="h-7 w-52 text-xs" />
      <Button type="submit" size="sm" variant="primary" busy={create.isPending} disabled={!name.trim()}>
        Save
      </Button>
      <Button size="sm" variant="ghost" onClick={onDone}>
        Cancel
      </Button>
      <ErrorAlert error={create.error} className="py-1 text-xs" />
    </form>
  );
}
