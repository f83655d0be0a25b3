"use client";

import { useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";

type Row = Record<string, unknown>;
const ROW_HEIGHT = 26;
const MAX_COLUMNS = 30;

/** An array of flat objects (scalar values only), or null. */
export function asFlatRows(value: unknown): Row[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  for (const row of value) {
    if (!row || typeof row !== "object" || Array.isArray(row)) return null;
    for (const v of Object.values(row)) if (v !== null && typeof v === "object") return null;
  }
  return value as Row[];
}

/** Where in a value a table can be shown: the root, or the root object's array properties. */
export function tableCandidates(value: unknown): { key: string; rows: Row[] }[] {
  const root = asFlatRows(value);
  if (root) return [{ key: "(root)", rows: root }];
  if (!value || typeof value !== "object" || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const rows = asFlatRows(v);
    return rows ? [{ key, rows }] : [];
  });
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

function cell(value: unknown): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A sortable table of flat rows; only the rows in view are rendered, so 100,000 rows scroll fine. */
export function JsonTable({ rows, label }: { rows: Row[]; label: string }) {
  const columns = useMemo(() => {
    const keys = new Set<string>();
    for (const row of rows) {
      for (const k of Object.keys(row)) keys.add(k);
      if (keys.size >= MAX_COLUMNS) break;
    }
    return [...keys].slice(0, MAX_COLUMNS);
  }, [rows]);
  const [sort, setSort] = useState<{ key: string; dir: 1 | -1 } | null>(null);
  const order = useMemo(() => {
    const idx = rows.map((_, i) => i);
    if (sort) idx.sort((i, j) => compare(rows[i]![sort.key], rows[j]![sort.key]) * sort.dir);
    return idx;
  }, [rows, sort]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: order.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const grid = { display: "grid", gridTemplateColumns: `4rem repeat(${columns.length}, minmax(8rem, 1fr))` };

  return (
    <div role="table" aria-label={label} aria-rowcount={rows.length + 1} className="rounded-md border text-xs">
      <div role="rowgroup" className="border-b bg-panel">
        <div role="row" style={grid}>
          <span role="columnheader" className="px-2 py-1 text-muted">#</span>
          {columns.map((key) => {
            const dir = sort?.key === key ? sort.dir : 0;
            return (
              <span key={key} role="columnheader" aria-sort={dir === 1 ? "ascending" : dir === -1 ? "descending" : "none"} className="truncate">
                <button
                  type="button"
                  className="w-full truncate px-2 py-1 text-left font-medium hover:bg-hover"
                  onClick={() => setSort(dir === 1 ? { key, dir: -1 } : dir === -1 ? null : { key, dir: 1 })}
                >
                  {key} {dir === 1 ? "▲" : dir === -1 ? "▼" : ""}
                </button>
              </span>
            );
          })}
        </div>
      </div>
      <div ref={scroller} role="rowgroup" className="max-h-96 overflow-auto" data-testid="json-table-body">
        <div style={{ height: virtual.getTotalSize(), position: "relative" }}>
          {virtual.getVirtualItems().map((item) => {
            const index = order[item.index]!;
            const row = rows[index]!;
            return (
              <div key={item.key} role="row" aria-rowindex={item.index + 2} className="absolute inset-x-0 border-b border-line/50 font-mono hover:bg-hover" style={{ ...grid, top: item.start, height: ROW_HEIGHT }}>
                <span role="cell" className="px-2 py-1 text-muted tabular-nums">{index}</span>
                {columns.map((key) => (
                  <span key={key} role="cell" className="truncate px-2 py-1" title={cell(row[key])}>
                    {cell(row[key])}
                  </span>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
