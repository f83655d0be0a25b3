import type { ReactNode } from "react";

const MAX_CHILDREN = 500;

/** A collapsible, read-only view of any JSON value. Everything is rendered as text. */
export function JsonTree({ value, openDepth = 2, label }: { value: unknown; openDepth?: number; label?: string }) {
  return (
    <div role="group" aria-label={label ?? "JSON"} className="overflow-x-auto font-mono text-xs leading-5">
      <Node name={null} value={value} depth={0} openDepth={openDepth} />
    </div>
  );
}

function Node({ name, value, depth, openDepth }: { name: string | null; value: unknown; depth: number; openDepth: number }) {
  const key = name === null ? null : <span className="text-violet-700 dark:text-violet-300">{name}: </span>;
  if (value === null || typeof value !== "object") {
    return (
      <div className="pl-4 break-all">
        {key}
        <Scalar value={value} />
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray ? value.map((v, i) => [String(i), v]) : Object.entries(value as Record<string, unknown>);
  const [open, close] = isArray ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) {
    return (
      <div className="pl-4">
        {key}
        <span className="text-muted">{open + close}</span>
      </div>
    );
  }
  const shown = entries.slice(0, MAX_CHILDREN);
  return (
    <details open={depth < openDepth} className="group pl-4 [&>summary]:list-none">
      <summary className="-ml-4 cursor-pointer rounded select-none hover:bg-hover">
        <span aria-hidden className="inline-block w-4 text-center text-muted group-open:rotate-90">
          ▸
        </span>
        {key}
        <span className="text-muted">
          {open}
          <span className="group-open:hidden">
            {" "}
            {entries.length} {isArray ? (entries.length === 1 ? "item" : "items") : entries.length === 1 ? "key" : "keys"} {close}
          </span>
        </span>
      </summary>
      <div>
        {shown.map(([k, v]) => (
          <Node key={k} name={isArray ? null : JSON.stringify(k)} value={v} depth={depth + 1} openDepth={openDepth} />
        ))}
        {entries.length > MAX_CHILDREN && <div className="pl-4 text-muted">… {entries.length - MAX_CHILDREN} more</div>}
      </div>
      <span className="text-muted">{close}</span>
    </details>
  );
}

function Scalar({ value }: { value: unknown }): ReactNode {
  if (typeof value === "string") return <span className="text-emerald-700 dark:text-emerald-300">{JSON.stringify(value)}</span>;
  if (typeof value === "number") return <span className="text-sky-700 dark:text-sky-300">{String(value)}</span>;
  if (typeof value === "boolean") return <span className="text-amber-700 dark:text-amber-300">{String(value)}</span>;
  if (value === undefined) return <span className="text-muted">undefined</span>;
  return <span className="text-muted">null</span>;
}
