"use client";

import { useRef, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select, Labelled } from "@/components/ui/field";
import type { AuditFilters } from "@/lib/core/audit";

export const FILTER_KEYS = ["action", "actorId", "targetType", "targetId", "since", "until"] as const satisfies readonly (keyof AuditFilters)[];
const TEXT_KEYS = ["action", "actorId", "targetId"] as const;

/** Suggestions for the action field: a prefix ending in "." matches every action of that kind. */
const ACTIONS = [
  "server.",
  "server.created",
  "server.updated",
  "server.archived",
  "server.restored",
  "server.purged",
  "servers.imported",
  "agent.",
  "token.",
  "auth.",
  "auth.sign_in_failed",
  "member.",
  "invitation.",
  "share.",
  "workspace.",
  "retention.purged",
];
const TARGET_TYPES = ["server", "agent", "token", "user", "member", "invitation", "share", "workspace"];

function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function fromLocalInput(value: string): string | undefined {
  const d = new Date(value);
  return value && !Number.isNaN(d.getTime()) ? d.toISOString() : undefined;
}

/** Selects and dates apply at once; text fields on Enter or when they lose focus. */
export function AuditFiltersForm({ filters, onChange }: { filters: Partial<AuditFilters>; onChange: (filters: Partial<AuditFilters>) => void }) {
  const form = useRef<HTMLFormElement>(null);
  const apply = (patch: Partial<AuditFilters>) => {
    const next: Partial<AuditFilters> = { ...filters, ...patch };
    for (const key of FILTER_KEYS) if (!next[key]) delete next[key];
    onChange(next);
  };
  const applyText = () => {
    const data = new FormData(form.current ?? undefined);
    const patch: Partial<AuditFilters> = {};
    for (const key of TEXT_KEYS) patch[key] = String(data.get(key) ?? "").trim() || undefined;
    if (TEXT_KEYS.some((key) => (patch[key] ?? "") !== (filters[key] ?? ""))) apply(patch);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    applyText();
  };

  return (
    <form ref={form} role="search" aria-label="Filter the audit log" onSubmit={onSubmit} className="flex flex-wrap items-end gap-2">
      <Labelled label="Action">
        {/* Keyed by the URL's value, so back/forward and "Clear" reset what was typed. */}
        <Input key={`a:${filters.action ?? ""}`} name="action" list="audit-actions" defaultValue={filters.action ?? ""} placeholder="server. or auth.sign_in_failed" onBlur={applyText} className="w-52" />
        <datalist id="audit-actions">
          {ACTIONS.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
      </Labelled>
      <Labelled label="Actor id">
        <Input key={`u:${filters.actorId ?? ""}`} name="actorId" defaultValue={filters.actorId ?? ""} placeholder="user or agent id" onBlur={applyText} className="w-44" />
      </Labelled>
      <Labelled label="Target">
        <Select value={filters.targetType ?? ""} onChange={(e) => apply({ targetType: e.target.value || undefined })} className="w-32">
          <option value="">Any target</option>
          {TARGET_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
      </Labelled>
      <Labelled label="Target id">
        <Input key={`t:${filters.targetId ?? ""}`} name="targetId" defaultValue={filters.targetId ?? ""} onBlur={applyText} className="w-44" />
      </Labelled>
      <Labelled label="Since">
        <Input type="datetime-local" value={toLocalInput(filters.since)} onChange={(e) => apply({ since: fromLocalInput(e.target.value) })} className="w-48" />
      </Labelled>
      <Labelled label="Until">
        <Input type="datetime-local" value={toLocalInput(filters.until)} onChange={(e) => apply({ until: fromLocalInput(e.target.value) })} className="w-48" />
      </Labelled>
      <button type="submit" hidden />
      {FILTER_KEYS.some((k) => filters[k]) && (
        <Button variant="ghost" onClick={() => onChange({})}>
          Clear filters
        </Button>
      )}
    </form>
  );
}
