"use client";

import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import type { LintFinding } from "@/lib/domains/quality";

type Severity = LintFinding["severity"];
const SEVERITIES: { id: Severity; label: string; tone: BadgeTone }[] = [
  { id: "error", label: "Errors", tone: "red" },
  { id: "warning", label: "Warnings", tone: "amber" },
  { id: "info", label: "Info", tone: "blue" },
];

/** `tool:get-weather` → ["tool", "get-weather"]; a resource's URI keeps its own colons. */
function splitItem(item: string): [string, string] {
  const colon = item.indexOf(":");
  return colon > 0 ? [item.slice(0, colon), item.slice(colon + 1)] : ["", item];
}

/** A snapshot's findings grouped by severity (errors first), with a filter by severity. */
export function FindingsList({ findings }: { findings: LintFinding[] }) {
  const [shown, setShown] = useState<Severity | "all">("all");
  const count = (severity: Severity) => findings.filter((f) => f.severity === severity).length;

  if (findings.length === 0) {
    return <p className="text-sm text-muted">No findings: every definition passes the rules.</p>;
  }
  const groups = SEVERITIES.filter((s) => (shown === "all" || shown === s.id) && count(s.id) > 0);
  const filters: { id: Severity | "all"; label: string; count: number }[] = [{ id: "all", label: "All", count: findings.length }, ...SEVERITIES.map((s) => ({ id: s.id, label: s.label, count: count(s.id) }))];

  return (
    <div className="flex flex-col gap-3">
      <div role="group" aria-label="Show findings of severity" className="flex flex-wrap gap-1.5">
        {filters.map((f) => (
          <button
            key={f.id}
            type="button"
            aria-pressed={shown === f.id}
            onClick={() => setShown(f.id)}
            className={cn("rounded-md border px-2 py-1 text-xs font-medium", shown === f.id ? "border-accent bg-hover text-fg" : "text-muted hover:text-fg")}
          >
            {f.label} <span className="tabular-nums">({f.count})</span>
          </button>
        ))}
      </div>
      {groups.length === 0 ? (
        <p className="text-sm text-muted">No finding of this severity.</p>
      ) : (
        groups.map((group) => (
          <section key={group.id} aria-labelledby={`findings-${group.id}`} className="flex flex-col gap-1.5">
            <h3 id={`findings-${group.id}`} className="text-xs font-semibold tracking-wide text-muted uppercase">
              {group.label} ({count(group.id)})
            </h3>
            <ul aria-label={`${group.label} found`} className="flex flex-col divide-y rounded-lg border">
              {findings
                .filter((f) => f.severity === group.id)
                .map((f, i) => {
                  const [kind, name] = splitItem(f.item);
                  return (
                    <li key={`${f.item}-${f.rule}-${i}`} className="flex min-w-0 flex-col gap-1 px-3 py-2 text-sm">
                      <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
                        <Badge tone={group.tone}>{group.id}</Badge>
                        {kind && <span className="text-xs text-muted">{kind}</span>}
                        <code className="min-w-0 font-mono text-xs break-all">{name}</code>
                        <span className="text-xs text-muted">· {f.rule}</span>
                      </div>
                      <p className="break-words">{f.message}</p>
                    </li>
                  );
                })}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}
