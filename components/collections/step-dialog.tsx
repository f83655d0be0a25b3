"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { JsonEditor } from "@/components/ui/json-editor";
import { STEP_METHODS, type Step, type StepMethod } from "@/lib/domains/collections";
import { useServers } from "@/lib/domains/servers/hooks";
import { AssertionsEditor } from "./assertions-editor";
import { fromDraft, toDraft, type AssertionDraft } from "./assertion-draft";
import { useRecordedResult } from "./result-picker";

export type StepDraft = Omit<Step, "id"> & { id?: string };

const CUSTOM = "__alias";
const takesArguments = (method: StepMethod) => method === "tools/call" || method === "prompts/get";
const takesName = (method: StepMethod) => method === "tools/call" || method === "prompts/get";

/** Add or edit one step: its server, method, name or URI, arguments and assertions (picked from `lastRunId`'s result). */
export function StepDialog({ step, title, open, onClose, onSave, busy, error, lastRunId = null }: {
  step: StepDraft | null;
  lastRunId?: string | null;
  title: string;
  open: boolean;
  onClose: () => void;
  onSave: (step: StepDraft) => void;
  busy?: boolean;
  error?: React.ReactNode;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title} className="w-[min(48rem,calc(100vw-2rem))]">
      {open && <StepForm key={step?.id ?? "new"} step={step} lastRunId={lastRunId} onCancel={onClose} onSave={onSave} busy={busy} error={error} />}
    </Dialog>
  );
}

function StepForm({ step, lastRunId, onCancel, onSave, busy, error }: {
  step: StepDraft | null;
  lastRunId: string | null;
  onCancel: () => void;
  onSave: (step: StepDraft) => void;
  busy?: boolean;
  error?: React.ReactNode;
}) {
  const servers = useServers();
  const kept = step?.assert?.find((a) => a.kind === "snapshot")?.expected;
  const recorded = useRecordedResult(lastRunId, step?.id, kept);
  const [label, setLabel] = useState(step?.label ?? "");
  const [serverId, setServerId] = useState(step?.serverId ?? "");
  const [method, setMethod] = useState<StepMethod>(step?.method ?? "tools/call");
  const [target, setTarget] = useState(step?.name ?? step?.uri ?? "");
  const [args, setArgs] = useState(JSON.stringify(step?.arguments ?? {}, null, 2));
  const [drafts, setDrafts] = useState<AssertionDraft[]>(() => (step?.assert ?? [{ kind: "status", equals: "ok" }]).map(toDraft));
  const [problem, setProblem] = useState<string | null>(null);

  const known = servers.data?.some((s) => s.id === serverId) ?? false;
  const [custom, setCustom] = useState(!!serverId && !known && serverId.includes("{{"));

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!serverId.trim()) return setProblem("Choose a server, or type an alias such as {{api}}.");
    if ((takesName(method) || method === "resources/read") && !target.trim()) return setProblem(method === "resources/read" ? "A resources/read step needs a URI." : "Name the tool or prompt.");
    let parsedArgs: Record<string, unknown> | undefined;
    if (takesArguments(method)) {
      try {
        const value = JSON.parse(args || "{}") as unknown;
        if (!value || typeof value !== "object" || Array.isArray(value)) return setProblem("Arguments must be a JSON object.");
        parsedArgs = value as Record<string, unknown>;
      } catch {
        return setProblem("Arguments are not valid JSON.");
      }
    }
    const assert = [];
    for (const [i, d] of drafts.entries()) {
      const checked = fromDraft(d);
      if ("problem" in checked) return setProblem(`Assertion ${i + 1}: ${checked.problem}`);
      assert.push(checked.assertion);
    }
    const next: StepDraft = { ...(step?.id ? { id: step.id } : {}), serverId: serverId.trim(), method, assert };
    if (label.trim()) next.label = label.trim();
    if (takesName(method)) next.name = target.trim();
    if (method === "resources/read") next.uri = target.trim();
    if (parsedArgs && Object.keys(parsedArgs).length > 0) next.arguments = parsedArgs;
    onSave(next);
  }

  return (
    <form onSubmit={submit} className="flex max-h-[75vh] flex-col gap-3 overflow-y-auto pr-1">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field label="Server" required>
          {(props) => (
            <Select
              {...props}
              value={custom ? CUSTOM : serverId}
              onChange={(e) => {
                const value = e.target.value;
                setCustom(value === CUSTOM);
                setServerId(value === CUSTOM ? "{{server}}" : value);
              }}
            >
              <option value="">Choose a server…</option>
              {servers.data?.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
              {!known && !custom && serverId && <option value={serverId}>{serverId} (not in this workspace)</option>}
              <option value={CUSTOM}>An alias from the environment…</option>
            </Select>
          )}
        </Field>
        {custom && (
          <Field label="Server alias" hint="Mapped to a server by the run's environment, e.g. {{api}}">
            {(props) => <Input {...props} className="font-mono" value={serverId} onChange={(e) => setServerId(e.target.value)} />}
          </Field>
        )}
        <Field label="Method">
          {(props) => (
            <Select {...props} value={method} onChange={(e) => setMethod(e.target.value as StepMethod)}>
              {STEP_METHODS.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {(takesName(method) || method === "resources/read") && (
          <Field label={method === "resources/read" ? "URI" : method === "prompts/get" ? "Prompt name" : "Tool name"} required>
            {(props) => <Input {...props} className="font-mono" value={target} onChange={(e) => setTarget(e.target.value)} />}
          </Field>
        )}
        <Field label="Label" hint="Shown in runs; the method and name when empty">
          {(props) => <Input {...props} value={label} onChange={(e) => setLabel(e.target.value)} />}
        </Field>
      </div>
      {takesArguments(method) && (
        <div className="flex flex-col gap-1">
          <span className="text-xs font-medium">Arguments</span>
          <JsonEditor label="Step arguments" value={args} onChange={setArgs} minHeight="6rem" maxHeight="16rem" />
          <p className="text-xs text-muted">
            {"Use {{name}} for a variable, {{steps.1#/structuredContent/id}} for a value from an earlier step's result."}
          </p>
        </div>
      )}
      <section aria-label="Step assertions" className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">Assertions</h3>
        <AssertionsEditor drafts={drafts} onChange={setDrafts} recorded={recorded} />
      </section>
      {problem && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {problem}
        </p>
      )}
      {error}
      <div className="flex justify-end gap-2">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy}>
          Save step
        </Button>
      </div>
    </form>
  );
}
