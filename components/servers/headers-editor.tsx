"use client";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";

export interface HeaderRow {
  key: number;
  name: string;
  value: string;
}

let nextKey = 1;
function newHeaderRow(): HeaderRow {
  return { key: nextKey++, name: "", value: "" };
}

/** Rows of custom header name/value pairs; values are typed as passwords, never echoed back. */
export function HeadersEditor({ rows, onChange, title = "Custom headers" }: { rows: HeaderRow[]; onChange: (rows: HeaderRow[]) => void; title?: string }) {
  const update = (key: number, patch: Partial<HeaderRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-xs font-medium">{title}</legend>
      {rows.length === 0 && <p className="text-xs text-muted">None. Add one for an API key or an Authorization header.</p>}
      {rows.map((row, index) => (
        <div key={row.key} className="flex items-center gap-2">
          <Input
            aria-label={`Header ${index + 1} name`}
            placeholder="X-Api-Key"
            value={row.name}
            autoComplete="off"
            onChange={(e) => update(row.key, { name: e.target.value })}
            className="w-2/5 font-mono text-xs"
          />
          <Input
            aria-label={`Header ${index + 1} value`}
            placeholder="value"
            type="password"
            autoComplete="new-password"
            value={row.value}
            onChange={(e) => update(row.key, { value: e.target.value })}
            className="flex-1 font-mono text-xs"
          />
          <Button size="sm" variant="ghost" aria-label={`Remove header ${index + 1}`} onClick={() => onChange(rows.filter((r) => r.key !== row.key))}>
            Remove
          </Button>
        </div>
      ))}
      <div>
        <Button size="sm" onClick={() => onChange([...rows, newHeaderRow()])}>
          Add header
        </Button>
      </div>
    </fieldset>
  );
}

/** The filled rows as a `{ name: value }` record. */
export function headersFromRows(rows: HeaderRow[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const row of rows) if (row.name.trim()) headers[row.name.trim()] = row.value;
  return headers;
}
