"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select, Labelled } from "@/components/ui/field";
import { ANY_ORIGIN, CALL_METHODS, CALL_ORIGINS, CALL_STATUSES } from "@/lib/domains/calls";
import type { CallFilters } from "@/lib/domains/calls/hooks";
import { useTags } from "@/lib/domains/reviews/hooks";
import { useArchivedServers, useServers } from "@/lib/domains/servers/hooks";

const FILTER_KEYS = ["serverId", "method", "name", "status", "q", "from", "to", "tag", "starred", "userId", "origin"] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/** The filters in the URL, as the API wants them. */
export function filtersFromParams(params: URLSearchParams): CallFilters {
  const filters: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  return filters as CallFilters;
}

function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Selects apply at once; text fields apply on Enter or when they lose focus. */
export function HistoryFilters({ filters, onChange }: { filters: CallFilters; onChange: (filters: CallFilters) => void }) {
  const servers = useServers();
  const tags = useTags();
  const tagOptions = tags.data?.map((t) => t.tag) ?? [];
  if (filters.tag && !tagOptions.includes(filters.tag)) tagOptions.unshift(filters.tag);
  const archived = useArchivedServers();
  const urlText = { name: filters.name ?? "", q: filters.q ?? "" };
  // A draft counts only while the URL still says what it was typed against (back/forward resets it).
  const [draft, setDraft] = useState({ base: urlText, text: urlText });
  const text = draft.base.name === urlText.name && draft.base.q === urlText.q ? draft.text : urlText;
  const setText = (next: typeof urlText) => setDraft({ base: urlText, text: next });

  const apply = (patch: Partial<Record<FilterKey, string | undefined>>) => {
    const next: Record<string, string | undefined> = { ...filters, ...patch };
    for (const key of Object.keys(next)) if (!next[key]) delete next[key];
    onChange(next as CallFilters);
  };
  const applyText = () => {
    if (text.name !== (filters.name ?? "") || text.q !== (filters.q ?? "")) apply({ name: text.name.trim(), q: text.q.trim() });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    applyText();
  };
  const active = FILTER_KEYS.some((k) => filters[k]);

  return (
    <form role="search" aria-label="Filter history" onSubmit={onSubmit} className="flex flex-wrap items-end gap-2">
      <Labelled label="Server">
        <Select value={filters.serverId ?? ""} onChange={(e) => apply({ serverId: e.target.value })} className="w-40">
          <option value="">All servers</option>
          {servers.data?.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
          {archived.data?.length ? (
            <optgroup label="Archived">
              {archived.data.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} (archived)
                </option>
              ))}
            </optgroup>
          ) : null}
        </Select>
      </Labelled>
      <Labelled label="Method">
        <Select value={filters.method ?? ""} onChange={(e) => apply({ method: e.target.value })} className="w-36">
          <option value="">All methods</option>
          {CALL_METHODS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </Select>
      </Labelled>
      <Labelled label="Status">
        <Select value={filters.status ?? ""} onChange={(e) => apply({ status: e.target.value })} className="w-32">
          <option value="">Any status</option>
          {CALL_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
      </Labelled>
      <Labelled label="Origin">
        <Select
          value={filters.origin ?? ""}
          onChange={(e) => apply({ origin: e.target.value })}
          className="w-48"
          title="By default history shows people's work: it hides monitors' runs (the Monitors view) and the reads the console makes by itself (re-reading a subscribed resource that changed, an MCP App loading its resources)"
        >
          <option value="">People&apos;s work</option>
          <option value={ANY_ORIGIN}>All, automatic work too</option>
          {[...new Set([...CALL_ORIGINS, ...(filters.origin && filters.origin !== ANY_ORIGIN ? [filters.origin] : [])])].map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </Select>
      </Labelled>
      <Labelled label="Tag">
        <Select value={filters.tag ?? ""} onChange={(e) => apply({ tag: e.target.value })} className="w-36">
          <option value="">Any tag</option>
          {tagOptions.map((tag) => (
            <option key={tag} value={tag}>
              {tag}
            </option>
          ))}
        </Select>
      </Labelled>
      <Button
        aria-pressed={filters.starred !== undefined}
        title="Only the calls you starred"
        className={filters.starred ? "border-amber-400 text-amber-700 dark:text-amber-300" : undefined}
        onClick={() => apply({ starred: filters.starred ? undefined : "1" })}
      >
        <span aria-hidden>{filters.starred ? "★" : "☆"}</span>
        Starred
      </Button>
      <Labelled label="Name">
        <Input value={text.name} placeholder="tool, uri or prompt" onChange={(e) => setText({ ...text, name: e.target.value })} onBlur={applyText} className="w-40" />
      </Labelled>
      <Labelled label="Search">
        <Input type="search" value={text.q} placeholder="arguments, results…" onChange={(e) => setText({ ...text, q: e.target.value })} onBlur={applyText} className="w-52" />
      </Labelled>
      <Labelled label="From">
        <Input type="datetime-local" value={toLocalInput(filters.from)} onChange={(e) => apply({ from: fromLocalInput(e.target.value) })} className="w-48" />
      </Labelled>
      <Labelled label="To">
        <Input type="datetime-local" value={toLocalInput(filters.to)} onChange={(e) => apply({ to: fromLocalInput(e.target.value) })} className="w-48" />
      </Labelled>
      <button type="submit" hidden />
      {active && (
        <Button
          variant="ghost"
          onClick={() => {
            setText({ name: "", q: "" });
            onChange({});
          }}
        >
          Clear filters
        </Button>
      )}
    </form>
  );
}
