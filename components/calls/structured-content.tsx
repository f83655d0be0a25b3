"use client";

import { useDeferredValue, useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { JsonTree } from "@/components/ui/json-tree";
import { useCapability } from "@/lib/domains/servers/hooks";
import { prettyJson } from "./format";
import { JsonTable, tableCandidates } from "./json-table";
import { checkSchema } from "./json-schema";

const COPY_LIMIT = 5 * 1024 * 1024;

/**
 * structuredContent as a searchable JSON tree (copy a node's path), arrays of flat objects also as
 * a sortable table, validated against the tool's outputSchema with each failing path marked.
 */
export function StructuredContent({ value, outputSchema }: { value: unknown; outputSchema: unknown }) {
  const schema = outputSchema && typeof outputSchema === "object" ? outputSchema : null;
  const check = useMemo(() => (schema ? checkSchema(schema, value) : null), [schema, value]);
  const marks = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const e of check?.errors ?? []) {
      const pointer = e.path === "/" ? "" : e.path;
      map.set(pointer, [...(map.get(pointer) ?? []), e.message]);
    }
    return map;
  }, [check]);
  const tables = useMemo(() => tableCandidates(value), [value]);
  const [view, setView] = useState<"tree" | "table">("tree");
  const [tableKey, setTableKey] = useState(0);
  const [query, setQuery] = useState("");
  const search = useDeferredValue(query);
  const table = tables[Math.min(tableKey, tables.length - 1)];

  return (
    <details open className="rounded-md border">
      <summary className="flex cursor-pointer items-center gap-2 border-b bg-panel px-2 py-1 text-xs font-medium">
        Structured content
        {!check ? (
          <Badge>no outputSchema</Badge>
        ) : check.schemaError ? (
          <Badge tone="amber">schema unusable</Badge>
        ) : check.valid ? (
          <Badge tone="green">matches outputSchema</Badge>
        ) : (
          <Badge tone="red">does not match outputSchema</Badge>
        )}
      </summary>
      <div className="flex flex-col gap-2 p-2">
        {check?.schemaError && <p className="text-xs text-amber-700 dark:text-amber-300">The outputSchema could not be compiled: {check.schemaError}</p>}
        {check && !check.valid && check.errors.length > 0 && (
          <ul role="alert" aria-label="Output schema errors" className="list-disc pl-5 text-xs text-red-700 dark:text-red-300">
            {check.errors.slice(0, 50).map((e, i) => (
              <li key={i}>
                <span className="font-mono">{e.path}</span> {e.message}
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap items-center gap-2">
          {tables.length > 0 && (
            <div role="group" aria-label="Structured view" className="inline-flex rounded-md border p-0.5">
              {(["tree", "table"] as const).map((v) => (
                <Button key={v} size="sm" variant="ghost" aria-pressed={view === v} onClick={() => setView(v)} className="h-6 border-0 text-muted aria-pressed:bg-hover aria-pressed:text-fg">
                  {v === "tree" ? "Tree" : "Table"}
                </Button>
              ))}
            </div>
          )}
          {view === "table" && tables.length > 1 && (
            <select aria-label="Array to show" className="h-7 rounded-md border bg-raised px-1 text-xs" value={tableKey} onChange={(e) => setTableKey(Number(e.target.value))}>
              {tables.map((t, i) => (
                <option key={t.key} value={i}>
                  {t.key} ({t.rows.length})
                </option>
              ))}
            </select>
          )}
          {view === "tree" && (
            <Input type="search" aria-label="Search structured content" placeholder="Search keys and values…" value={query} onChange={(e) => setQuery(e.target.value)} className="h-7 w-56 text-xs" />
          )}
          <CopyJson value={value} />
        </div>
        {view === "table" && table ? (
          <JsonTable rows={table.rows} label={`Table of ${table.key}`} />
        ) : (
          <JsonTree value={value} label="Structured content" search={search} marks={marks} copyPaths />
        )}
      </div>
    </details>
  );
}

function CopyJson({ value }: { value: unknown }) {
  // Serialised on click only, so a big value costs nothing until someone asks for it.
  const [state, setState] = useState<"idle" | "copied" | "too large">("idle");
  return (
    <Button
      size="sm"
      onClick={() => {
        const text = prettyJson(value);
        if (text.length > COPY_LIMIT) return setState("too large");
        void navigator.clipboard.writeText(text).then(() => setState("copied"), () => setState("idle"));
        setTimeout(() => setState("idle"), 2000);
      }}
    >
      {state === "copied" ? "Copied" : state === "too large" ? "Too large to copy" : "Copy JSON"}
    </Button>
  );
}

/** Looks the tool's outputSchema up in the server's tool list (for calls opened from history). */
export function StructuredContentFromServer({ serverId, toolName, value }: { serverId: string; toolName: string; value: unknown }) {
  const tools = useCapability(serverId, "tools");
  const tool = tools.data?.find((t) => t.name === toolName);
  return <StructuredContent value={value} outputSchema={tool?.outputSchema} />;
}
