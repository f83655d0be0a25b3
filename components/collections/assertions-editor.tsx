"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { ASSERTION_KINDS, type Assertion } from "@/lib/domains/collections";
import { fromDraft, KIND_LABEL, newDraft, type AssertionDraft, type JsonOp } from "./assertion-draft";
import { ResultPicker, type Recorded } from "./result-picker";

interface Props {
  drafts: AssertionDraft[];
  onChange: (drafts: AssertionDraft[]) => void;
  /** The step's last recorded result, to pick a value's path from (see useRecordedResult). */
  recorded?: Recorded;
}

/**
 * The assertions of a step, one group of fields per kind; a problem shows beside its assertion
 * once it was changed. A value at a path is picked by clicking it in the last recorded result.
 */
export function AssertionsEditor({ drafts, onChange, recorded }: Props) {
  const [kind, setKind] = useState<Assertion["kind"]>("json");
  const set = (i: number, patch: Partial<AssertionDraft>) => onChange(drafts.map((d, j) => (j === i ? { ...d, ...patch, touched: true } : d)));

  return (
    <div className="flex flex-col gap-2">
      {drafts.length === 0 && <p className="text-xs text-muted">No assertions: the step passes whenever its call is made.</p>}
      <ol aria-label="Assertions" className="flex flex-col gap-2">
        {drafts.map((d, i) => {
          const checked = fromDraft(d);
          return (
            <li key={i}>
              <fieldset className="flex flex-col gap-2 rounded-md border p-2">
                <legend className="px-1 text-xs font-semibold">
                  Assertion {i + 1}: {KIND_LABEL[d.kind]}
                </legend>
                <AssertionFields draft={d} onChange={(patch) => set(i, patch)} />
                {d.kind === "json" && <ResultPicker recorded={recorded} index={i} onPick={(patch) => set(i, patch)} />}
                {"problem" in checked && d.touched && (
                  <p role="alert" className="text-xs text-red-600 dark:text-red-400">
                    {checked.problem}
                  </p>
                )}
                <Button size="sm" variant="ghost" className="self-end" onClick={() => onChange(drafts.filter((_, j) => j !== i))}>
                  Remove assertion {i + 1}
                </Button>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap items-end gap-2">
        <Field label="New assertion" className="w-56">
          {(props) => (
            <Select {...props} value={kind} onChange={(e) => setKind(e.target.value as Assertion["kind"])}>
              {ASSERTION_KINDS.map((k) => (
                <option key={k} value={k}>
                  {KIND_LABEL[k]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Button onClick={() => onChange([...drafts, newDraft(kind)])}>Add assertion</Button>
      </div>
    </div>
  );
}

function AssertionFields({ draft: d, onChange }: { draft: AssertionDraft; onChange: (patch: Partial<AssertionDraft>) => void }) {
  switch (d.kind) {
    case "status":
      return (
        <Field label="Status equals">
          {(props) => (
            <Select {...props} value={d.equals} onChange={(e) => onChange({ equals: e.target.value as AssertionDraft["equals"] })}>
              <option value="ok">ok (answered, not isError)</option>
              <option value="isError">isError (the tool reported an error)</option>
              <option value="error">error (the call failed)</option>
            </Select>
          )}
        </Field>
      );
    case "json":
      return (
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-[minmax(0,1fr)_9rem_minmax(0,1fr)]">
          <Field label="Path" hint="A JSON pointer into the result">
            {(props) => <Input {...props} className="font-mono" placeholder="/content/0/text" value={d.path} onChange={(e) => onChange({ path: e.target.value })} />}
          </Field>
          <Field label="Check">
            {(props) => (
              <Select {...props} value={d.op} onChange={(e) => onChange({ op: e.target.value as JsonOp })}>
                <option value="equals">equals</option>
                <option value="contains">contains</option>
                <option value="matches">matches (regex)</option>
              </Select>
            )}
          </Field>
          <Field label="Expected" hint={d.op === "matches" ? "A JavaScript regular expression" : "JSON (3, true, {…}) or plain text"}>
            {(props) => <Input {...props} className="font-mono" value={d.value} onChange={(e) => onChange({ value: e.target.value })} />}
          </Field>
        </div>
      );
    case "schema":
      return (
        <Field label="JSON Schema" hint="Leave empty to use the tool's output schema">
          {(props) => <Textarea {...props} rows={4} value={d.schema} onChange={(e) => onChange({ schema: e.target.value })} />}
        </Field>
      );
    case "duration":
      return (
        <Field label="At most (ms)">
          {(props) => <Input {...props} type="number" min={1} className="w-40" value={d.maxMs} onChange={(e) => onChange({ maxMs: e.target.value })} />}
        </Field>
      );
    case "snapshot":
      return (
        <>
          <p className="text-xs text-muted">
            {d.expected === undefined ? "No snapshot kept yet: the first run fails until its result is accepted." : "A snapshot is kept; the result must match it."}
          </p>
          <Field label="Paths to ignore" hint="JSON pointers, one a line (e.g. /content/0/text)">
            {(props) => <Textarea {...props} rows={2} value={d.ignore} onChange={(e) => onChange({ ignore: e.target.value })} />}
          </Field>
        </>
      );
    case "lint":
      return (
        <>
          <p className="text-xs text-muted">The step&apos;s server&apos;s tool, prompt and resource definitions, listed when the step runs, against the lint rules and a token budget (as the Quality tab counts them).</p>
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            <Field label="Fail on">
              {(props) => (
                <Select {...props} value={d.failOn} onChange={(e) => onChange({ failOn: e.target.value as AssertionDraft["failOn"] })}>
                  <option value="error">errors</option>
                  <option value="warning">errors and warnings</option>
                </Select>
              )}
            </Field>
            <Field label="Token budget" hint="At most this many tokens; empty for no budget">
              {(props) => <Input {...props} type="number" min={0} inputMode="numeric" placeholder="8000" value={d.maxTokens} onChange={(e) => onChange({ maxTokens: e.target.value })} />}
            </Field>
          </div>
        </>
      );
  }
}
