"use client";

import { createContext, useContext, useMemo, useState, type ReactNode } from "react";
import { childPointer, pointerAncestors, searchJson, toJsonPath, type Segment } from "./json-paths";

const PAGE = 500;
const MAX_STRING = 10_000;

interface TreeContext {
  openDepth: number;
  matches: Set<string>;
  forcedOpen: Set<string>;
  marks: Map<string, string[]>;
  markTone: MarkTone;
  copyPaths: boolean;
  onPick?: (pointer: string, value: unknown) => void;
}
const Ctx = createContext<TreeContext>({ openDepth: 2, matches: new Set(), forcedOpen: new Set(), marks: new Map(), markTone: "error", copyPaths: false });

/** The label of a value's pick button: `Use /content/0/text = "Echo: hi"` (a long value cut). */
const pickLabel = (pointer: string, value: unknown) => {
  const shown = JSON.stringify(value) ?? "undefined";
  return `Use ${pointer || "the whole value"} = ${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown}`;
};

type MarkTone = "error" | "notice";
const MARK_NOTE: Record<MarkTone, string> = {
  error: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  notice: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
};
const MARK_RING: Record<MarkTone, string> = { error: "outline-red-400", notice: "outline-amber-400" };

interface JsonTreeProps {
  value: unknown;
  openDepth?: number;
  label?: string;
  /** Highlights matching keys and values and opens the way to them. */
  search?: string;
  /** Problems by JSON Pointer (e.g. ajv's instancePath); marked nodes are outlined and opened. */
  marks?: Map<string, string[]>;
  /** "error" (default) for problems, "notice" for neutral highlights such as masked fields. */
  markTone?: MarkTone;
  /** A "copy path" button next to each key. */
  copyPaths?: boolean;
  /** Makes every scalar value a button that picks it: its JSON Pointer and the value. */
  onPick?: (pointer: string, value: unknown) => void;
}

/** A collapsible, read-only view of any JSON value. Everything is rendered as text; big nodes page. */
export function JsonTree({ value, openDepth = 2, label, search = "", marks, markTone = "error", copyPaths = false, onPick }: JsonTreeProps) {
  const found = useMemo(() => searchJson(value, search), [value, search]);
  const ctx = useMemo<TreeContext>(() => {
    const forcedOpen = new Set(found.open);
    for (const pointer of marks?.keys() ?? []) for (const a of pointerAncestors(pointer)) forcedOpen.add(a);
    return { openDepth, matches: found.matches, forcedOpen, marks: marks ?? new Map(), markTone, copyPaths, onPick };
  }, [found, marks, markTone, openDepth, copyPaths, onPick]);
  return (
    <Ctx.Provider value={ctx}>
      <div role="group" aria-label={label ?? "JSON"} className="overflow-x-auto font-mono text-xs leading-5">
        <Node name={null} value={value} path={[]} pointer="" />
      </div>
    </Ctx.Provider>
  );
}

function Key({ name, path, pointer }: { name: string | null; path: Segment[]; pointer: string }) {
  const { matches, copyPaths } = useContext(Ctx);
  const [copied, setCopied] = useState(false);
  const jsonPath = toJsonPath(path);
  return (
    <>
      {copyPaths && path.length > 0 && (
        <button
          type="button"
          aria-label={`Copy path ${jsonPath}`}
          title={`Copy ${jsonPath}`}
          onClick={(e) => {
            e.preventDefault();
            void navigator.clipboard?.writeText(jsonPath).then(() => {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            }, () => undefined);
          }}
          className="mr-1 rounded px-0.5 text-[10px] text-muted opacity-40 hover:bg-hover hover:opacity-100 focus-visible:opacity-100"
        >
          {copied ? "✓" : "⧉"}
        </button>
      )}
      {name !== null && (
        <span className="text-violet-700 dark:text-violet-300">
          {matches.has(pointer) ? <mark data-testid="json-match">{name}</mark> : name}:{" "}
        </span>
      )}
    </>
  );
}

function MarkNote({ pointer }: { pointer: string }) {
  const { marks, markTone } = useContext(Ctx);
  const messages = marks.get(pointer);
  if (!messages) return null;
  return (
    <span role="note" data-testid={markTone === "error" ? "schema-mark" : "json-mark"} data-path={pointer || "/"} className={`ml-2 rounded px-1 font-sans text-[11px] ${MARK_NOTE[markTone]}`}>
      {messages.join("; ")}
    </span>
  );
}

function Node({ name, value, path, pointer }: { name: string | null; value: unknown; path: Segment[]; pointer: string }) {
  const { openDepth, forcedOpen, marks, markTone, matches, onPick } = useContext(Ctx);
  const [limit, setLimit] = useState(PAGE);
  const marked = marks.has(pointer);
  const ring = marked ? `outline outline-1 ${MARK_RING[markTone]} rounded-sm` : "";
  if (value === null || typeof value !== "object") {
    return (
      <div className={`pl-4 break-all ${ring}`} data-pointer={pointer}>
        <Key name={name} path={path} pointer={pointer} />
        {onPick ? (
          <PickButton pointer={pointer} value={value}>
            <Scalar value={value} />
          </PickButton>
        ) : matches.has(pointer) && name === null ? (
          <mark>
            <Scalar value={value} />
          </mark>
        ) : (
          <Scalar value={value} />
        )}
        <MarkNote pointer={pointer} />
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const size = isArray ? value.length : Object.keys(value).length;
  const [open, close] = isArray ? ["[", "]"] : ["{", "}"];
  if (size === 0) {
    return (
      <div className={`pl-4 ${ring}`}>
        <Key name={name} path={path} pointer={pointer} />
        <span className="text-muted">{open + close}</span>
        <MarkNote pointer={pointer} />
      </div>
    );
  }
  // Only the visible page of a big array or object is turned into entries.
  const entries: [string, unknown][] = isArray
    ? value.slice(0, limit).map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, unknown>).slice(0, limit);
  return (
    <details open={path.length < openDepth || forcedOpen.has(pointer)} className={`group pl-4 [&>summary]:list-none ${ring}`}>
      <summary className="-ml-4 cursor-pointer rounded select-none hover:bg-hover">
        <span aria-hidden className="inline-block w-4 text-center text-muted group-open:rotate-90">
          ▸
        </span>
        <Key name={name} path={path} pointer={pointer} />
        <span className="text-muted">
          {open}
          <span className="group-open:hidden">
            {" "}
            {size} {isArray ? (size === 1 ? "item" : "items") : size === 1 ? "key" : "keys"} {close}
          </span>
        </span>
        <MarkNote pointer={pointer} />
      </summary>
      <div>
        {entries.map(([k, v]) => (
          <Node key={k} name={isArray ? null : JSON.stringify(k)} value={v} path={[...path, isArray ? Number(k) : k]} pointer={childPointer(pointer, k)} />
        ))}
        {size > limit && (
          <button type="button" onClick={() => setLimit(limit + PAGE)} className="pl-4 text-left text-accent hover:underline">
            … {size - limit} more; show {Math.min(PAGE, size - limit)} more
          </button>
        )}
      </div>
      <span className="text-muted">{close}</span>
    </details>
  );
}

function PickButton({ pointer, value, children }: { pointer: string; value: unknown; children: ReactNode }) {
  const { onPick } = useContext(Ctx);
  return (
    <button
      type="button"
      aria-label={pickLabel(pointer, value)}
      data-pointer={pointer}
      onClick={(e) => {
        e.preventDefault();
        onPick?.(pointer, value);
      }}
      className="cursor-pointer rounded px-0.5 text-left break-all hover:bg-hover hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
    >
      {children}
    </button>
  );
}

function Scalar({ value }: { value: unknown }): ReactNode {
  if (typeof value === "string") {
    const text = value.length > MAX_STRING ? `${JSON.stringify(value.slice(0, MAX_STRING))}… (${value.length} characters)` : JSON.stringify(value);
    return <span className="text-emerald-700 dark:text-emerald-300">{text}</span>;
  }
  if (typeof value === "number") return <span className="text-sky-700 dark:text-sky-300">{String(value)}</span>;
  if (typeof value === "boolean") return <span className="text-amber-700 dark:text-amber-300">{String(value)}</span>;
  if (value === undefined) return <span className="text-muted">undefined</span>;
  return <span className="text-muted">null</span>;
}
