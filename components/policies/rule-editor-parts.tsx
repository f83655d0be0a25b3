"use client";

import { useId } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import { CONDITION_OPS, type ConditionOp } from "@/lib/domains/policies";
import { OP_WORDS } from "./rule-words";

export interface Option {
  value: string;
  label: string;
  hint?: string;
}

/** Checkboxes for a set of ids; ids the lists no longer know stay listed (by id) so saving keeps them. */
export function CheckList({ legend, hint, options, selected, onChange, error, empty }: { legend: string; hint?: string; options: Option[]; selected: string[]; onChange: (next: string[]) => void; error?: string | null; empty?: string }) {
  const id = useId();
  const known = new Set(options.map((o) => o.value));
  const all = [...options, ...selected.filter((v) => !known.has(v)).map((v) => ({ value: v, label: v, hint: "not found" }))];
  const toggle = (value: string, on: boolean) => onChange(on ? [...selected, value] : selected.filter((v) => v !== value));
  return (
    <fieldset aria-describedby={[hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined} className="flex min-w-0 flex-col gap-1">
      <legend className="text-xs font-medium">{legend}</legend>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      )}
      {all.length === 0 ? (
        <p className="text-xs text-muted">{empty ?? "None to pick."}</p>
      ) : (
        <div className="flex max-h-36 flex-col gap-1 overflow-y-auto rounded-md border p-2">
          {all.map((o) => (
            <label key={o.value} className="flex items-center gap-2 text-sm">
              <input type="checkbox" aria-invalid={error ? true : undefined} checked={selected.includes(o.value)} onChange={(e) => toggle(o.value, e.target.checked)} />
              <span className="truncate">{o.label}</span>
              {o.hint && <span className="truncate text-xs text-muted">{o.hint}</span>}
            </label>
          ))}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** A condition as the editor holds it: the value is the text typed (JSON, or a bare string). */
export interface ConditionDraft {
  key: number;
  path: string;
  op: ConditionOp;
  value: string;
}

/** The value typed: JSON when it parses, else the text itself (so a regex needs no quotes). */
export function parseValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}

export function valueText(value: unknown): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The conditions: all must hold for the rule to match. */
export function ConditionRows({ rows, onChange, errorOf }: { rows: ConditionDraft[]; onChange: (rows: ConditionDraft[]) => void; errorOf: (index: number) => { message: string; part?: "path" | "value" } | null }) {
  const set = (key: number, patch: Partial<ConditionDraft>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <fieldset className="flex min-w-0 flex-col gap-2 rounded-md border p-3">
      <legend className="px-1 text-xs font-medium">Conditions on the arguments</legend>
      <p className="text-xs text-muted">
        All must hold. A path is a JSON pointer into the call&apos;s arguments (<code>/path</code>, <code>/options/mode</code>). A value is JSON; text that is not JSON is taken as a string, so a
        regular expression needs no quotes.
      </p>
      {rows.map((row, i) => {
        const n = i + 1;
        const error = errorOf(i);
        return (
          <div key={row.key} data-testid="condition-row" className="grid grid-cols-1 gap-2 sm:grid-cols-[1fr_10rem_1fr_auto] sm:items-start">
            <Field label={<>Path<span className="sr-only"> of condition {n}</span></>} error={error?.part === "path" ? error.message : null}>
              {(p) => <Input {...p} value={row.path} placeholder="/path" onChange={(e) => set(row.key, { path: e.target.value })} className="font-mono" />}
            </Field>
            <Field label={<>Operator<span className="sr-only"> of condition {n}</span></>}>
              {(p) => (
                <Select {...p} value={row.op} onChange={(e) => set(row.key, { op: e.target.value as ConditionOp })}>
                  {CONDITION_OPS.map((op) => (
                    <option key={op} value={op}>
                      {OP_WORDS[op]}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label={<>Value<span className="sr-only"> of condition {n}</span></>} error={error && error.part !== "path" ? error.message : null}>
              {(p) => (
                <Input {...p} value={row.value} disabled={row.op === "exists"} placeholder={row.op === "in" ? '["a", "b"]' : row.op === "matches" ? "^/etc/" : '"text" or 42'} onChange={(e) => set(row.key, { value: e.target.value })} className="font-mono" />
              )}
            </Field>
            <Button size="sm" variant="ghost" className="sm:mt-5" aria-label={`Remove condition ${n}`} onClick={() => onChange(rows.filter((r) => r.key !== row.key))}>
              Remove
            </Button>
          </div>
        );
      })}
      <div>
        <Button size="sm" onClick={() => onChange([...rows, { key: Date.now() + rows.length, path: "", op: "equals", value: "" }])}>
          Add condition
        </Button>
      </div>
    </fieldset>
  );
}
