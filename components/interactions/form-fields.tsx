"use client";

import { Field, Input, Select } from "@/components/ui/field";
import { enumValues } from "@/lib/domains/interactions";

/** One property of an elicitation `requestedSchema` (flat primitives per the spec). */
export interface Prop {
  type?: string;
  title?: string;
  description?: string;
  format?: string;
  default?: unknown;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: { const: unknown; title?: string }[];
  anyOf?: { const: unknown; title?: string }[];
  items?: Prop;
  minimum?: number;
  maximum?: number;
  [key: string]: unknown;
}

/** Defaults from the schema, so the person starts from what the server proposes. */
export function initialValues(properties: Record<string, Prop>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(properties)) if (prop.default !== undefined) values[name] = prop.default;
  return values;
}

/** Value/label pairs of a single- or multi-select enum (plain, `enumNames`, or titled `oneOf`/`anyOf`). */
function choices(prop: Prop): { value: string; label: string }[] | null {
  const values = enumValues(prop as Record<string, unknown>);
  if (!values) return null;
  const titled = prop.oneOf ?? prop.anyOf;
  return values.map((value, i) => ({ value, label: titled?.[i]?.title ?? prop.enumNames?.[i] ?? value }));
}

const INPUT_TYPES: Record<string, string> = { email: "email", uri: "url", date: "date", "date-time": "datetime-local" };

/**
 * A control for one property: text (with format), number, checkbox, select, or a multi-select
 * checkbox list. `first` marks where the dialog puts focus.
 */
export function FormField({ name, prop, required, value, error, first, onChange }: {
  name: string;
  prop: Prop;
  required: boolean;
  value: unknown;
  error: string | null;
  first?: boolean;
  onChange: (value: unknown) => void;
}) {
  const label = prop.title ?? name;
  const hint = prop.description;
  const focus = first ? { "data-autofocus": true } : {};
  if (prop.type === "boolean") {
    return (
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" {...focus} checked={value === true} onChange={(e) => onChange(e.target.checked)} className="mt-0.5" />
        <span>
          <span className="font-medium">{label}</span>
          {hint && <span className="block text-xs text-muted">{hint}</span>}
          {error && <span className="block text-xs text-red-600">{error}</span>}
        </span>
      </label>
    );
  }
  if (prop.type === "array") {
    const options = choices(prop.items ?? {}) ?? [];
    const selected = Array.isArray(value) ? (value as string[]) : [];
    return (
      <fieldset className="flex flex-col gap-1 text-sm">
        <legend className="text-xs font-medium">{label}</legend>
        {hint && <p className="text-xs text-muted">{hint}</p>}
        {options.map((o, i) => (
          <label key={o.value} className="flex items-center gap-2">
            <input
              type="checkbox"
              {...(i === 0 ? focus : {})}
              checked={selected.includes(o.value)}
              onChange={(e) => onChange(e.target.checked ? [...selected, o.value] : selected.filter((v) => v !== o.value))}
            />
            {o.label}
          </label>
        ))}
        {error && <p className="text-xs text-red-600">{error}</p>}
      </fieldset>
    );
  }
  const options = choices(prop);
  return (
    <Field label={label} hint={hint} error={error} required={required}>
      {(aria) =>
        options ? (
          <Select {...aria} {...focus} value={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value || undefined)}>
            <option value="">—</option>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        ) : prop.type === "number" || prop.type === "integer" ? (
          <Input
            {...aria}
            {...focus}
            type="number"
            step={prop.type === "integer" ? 1 : "any"}
            min={prop.minimum}
            max={prop.maximum}
            value={typeof value === "number" ? value : ""}
            onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))}
          />
        ) : (
          <Input {...aria} {...focus} type={INPUT_TYPES[prop.format ?? ""] ?? "text"} value={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value)} />
        )
      }
    </Field>
  );
}
