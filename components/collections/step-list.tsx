"use client";

import { useEffect, useRef, useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { RoleGate } from "@/components/ui/role-gate";
import { fillVariables, stepLabel, type CollectionDto, type Step } from "@/lib/domains/collections";
import { useEnvironments, useUpdateCollection } from "@/lib/domains/collections/hooks";
import { useServers } from "@/lib/domains/servers/hooks";
import { StepDialog, type StepDraft } from "./step-dialog";

type Editing = { index: number | null; step: StepDraft | null };

/**
 * The steps in order: add, edit, move up and down, duplicate, delete; each change saves the whole
 * list. Labels read with `{{name}}` filled from the collection's variables and `environment`'s
 * values (the Run panel's choice, else the last run's environment).
 */
export function StepList({ collection, environment }: { collection: CollectionDto; environment?: string | null }) {
  const update = useUpdateCollection(collection.id);
  const servers = useServers();
  const envName = environment === undefined ? (collection.lastRun?.environment ?? null) : environment;
  const envValues = useEnvironments(!!envName).data?.find((e) => e.name === envName || e.id === envName)?.values;
  const values = { ...collection.variables, ...envValues };
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const [focus, setFocus] = useState<{ stepId: string; dir: "up" | "down" } | null>(null);
  const steps = collection.steps;
  const serverName = (id: string) => servers.data?.find((s) => s.id === id)?.name ?? id;

  function save(next: StepDraft[], then?: () => void) {
    update.mutate({ steps: next }, { onSuccess: () => then?.() });
  }

  // Moving re-renders the list; once saved, focus follows the step to its new place (or its other arrow at an end).
  function move(from: number, to: number) {
    const next = [...steps];
    const [step] = next.splice(from, 1) as [Step];
    next.splice(to, 0, step);
    save(next, () => setFocus({ stepId: step.id, dir: to < from ? "up" : "down" }));
  }

  useEffect(() => {
    if (!focus || update.isPending) return;
    const row = list.current?.querySelector<HTMLElement>(`[data-step-id="${CSS.escape(focus.stepId)}"]`);
    const button = row?.querySelector<HTMLButtonElement>(`[data-move="${focus.dir}"]:not(:disabled)`) ?? row?.querySelector<HTMLButtonElement>("[data-move]:not(:disabled)");
    button?.focus();
    setFocus(null);
  }, [focus, update.isPending, steps]);

  function duplicate(index: number) {
    const { id: _id, ...copy } = steps[index]!;
    save([...steps.slice(0, index + 1), { ...copy, label: copy.label ? `${copy.label} (copy)` : undefined }, ...steps.slice(index + 1)]);
  }

  return (
    <section aria-labelledby="steps-heading" className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="steps-heading" className="text-sm font-semibold">
          Steps <span className="font-normal text-muted">({steps.length})</span>
        </h2>
        <RoleGate min="member">
          <Button size="sm" onClick={() => setEditing({ index: null, step: null })}>
            Add step
          </Button>
        </RoleGate>
      </div>
      {!editing && <ErrorAlert error={update.error} title="Could not save the steps" />}
      {steps.length === 0 ? (
        <EmptyState title="No steps yet">Add a step, or tick calls in the history and choose New collection.</EmptyState>
      ) : (
        <ol ref={list} aria-label="Steps" className="flex flex-col divide-y rounded-md border">
          {steps.map((step, i) => {
            const template = stepLabel(step);
            const label = fillVariables(template, values);
            return (
              <li key={step.id} data-step-id={step.id} data-testid="step-row" className="flex flex-wrap items-center gap-2 px-3 py-2">
                <span className="w-6 text-right text-xs text-muted tabular-nums">{i + 1}.</span>
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium" data-testid="step-label" title={label === template ? undefined : template}>
                    {label}
                  </p>
                  <p className="truncate text-xs text-muted">
                    <span className="font-mono">{step.method}</span> on {serverName(step.serverId)}
                    {step.arguments && Object.keys(step.arguments).length > 0 && <span className="font-mono"> · {JSON.stringify(step.arguments)}</span>}
                  </p>
                </div>
                <Badge title="Assertions">{(step.assert ?? []).length === 1 ? "1 assertion" : `${(step.assert ?? []).length} assertions`}</Badge>
                <RoleGate min="member" hide>
                  <div className="flex flex-wrap gap-1">
                    <Button size="sm" variant="ghost" data-move="up" aria-label={`Move step ${i + 1} up`} disabled={i === 0 || update.isPending} onClick={() => move(i, i - 1)}>
                      ↑
                    </Button>
                    <Button size="sm" variant="ghost" data-move="down" aria-label={`Move step ${i + 1} down`} disabled={i === steps.length - 1 || update.isPending} onClick={() => move(i, i + 1)}>
                      ↓
                    </Button>
                    <Button size="sm" aria-label={`Edit step ${i + 1}`} onClick={() => setEditing({ index: i, step })}>
                      Edit
                    </Button>
                    <Button size="sm" aria-label={`Duplicate step ${i + 1}`} disabled={update.isPending} onClick={() => duplicate(i)}>
                      Duplicate
                    </Button>
                    <Button size="sm" variant="ghost" aria-label={`Delete step ${i + 1}`} onClick={() => setDeleting(i)}>
                      Delete
                    </Button>
                  </div>
                </RoleGate>
              </li>
            );
          })}
        </ol>
      )}
      <StepDialog
        open={editing !== null}
        title={editing?.index == null ? "Add a step" : `Edit step ${editing.index + 1}`}
        step={editing?.step ?? null}
        lastRunId={collection.lastRun?.id ?? null}
        busy={update.isPending}
        error={<ErrorAlert error={update.error} title="Could not save the step" />}
        onClose={() => {
          update.reset();
          setEditing(null);
        }}
        onSave={(step) => {
          const index = editing?.index;
          const next: StepDraft[] = index == null ? [...steps, step] : steps.map((s, j) => (j === index ? step : s));
          save(next, () => setEditing(null));
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete step ${(deleting ?? 0) + 1}?`}
        description={deleting !== null && steps[deleting] ? stepLabel(steps[deleting]) : undefined}
        confirmLabel="Delete step"
        busy={update.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => save(steps.filter((_, j) => j !== deleting), () => setDeleting(null))}
      />
    </section>
  );
}
