"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Select } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import { formatTime } from "@/components/calls/format";
import type { CapabilityChange, SnapshotDto } from "@/lib/watch/drift";
import { useCapabilityDiff, useCapabilityHistory } from "@/lib/watch/drift/hooks";
import type { ServerDto } from "@/lib/domains/servers";
import { FindingList, PinningSection } from "./pinning-section";
import { WatchForm } from "./watch-form";

/** A server's Changes tab: the timeline of capability snapshots, the diff of any two, the watch. */
export function ChangesPanel({ server }: { server: ServerDto }) {
  const history = useCapabilityHistory(server.id);
  // null: the latest and the one before it.
  const [pair, setPair] = useState<{ from: string; to: string } | null>(null);
  const items = history.data?.items ?? [];
  const to = pair?.to ?? items[0]?.id ?? null;
  const from = pair?.from ?? items[1]?.id ?? null;
  const selected = items.find((i) => i.id === to) ?? null;
  const diff = useCapabilityDiff(server.id, from, to, from !== null && to !== null);

  return (
    <div className="flex max-w-5xl flex-col gap-6 p-4 sm:p-6">
      <WatchForm server={server} />
      {history.data && <PinningSection server={server} pinning={history.data.pinning} />}
      <section aria-labelledby="timeline-title" className="flex flex-col gap-2">
        <h2 id="timeline-title" className="text-sm font-semibold">
          Capability timeline
        </h2>
        <p className="text-sm text-muted">A snapshot of the tools, prompts, resources and templates is kept at every connect (and a daily check) when they changed.</p>
        {history.isPending ? (
          <Skeleton className="h-32" />
        ) : history.error ? (
          <ErrorAlert error={history.error} title="Could not load the timeline" />
        ) : items.length === 0 ? (
          <EmptyState title="No snapshot yet">Connect the server: its capabilities are recorded at every connect.</EmptyState>
        ) : (
          <Timeline items={items} selected={to} onSelect={(i) => items[i + 1] && setPair({ from: items[i + 1]!.id, to: items[i]!.id })} />
        )}
      </section>
      {selected && (
        <section aria-labelledby="findings-title" className="flex flex-col gap-2">
          <h2 id="findings-title" className="text-sm font-semibold">
            Marked for review ({formatTime(selected.takenAt)})
          </h2>
          <p className="text-sm text-muted">The definition scan marks invisible or bidirectional characters, words aimed at the model, URLs and hints of sending data out, and tools named like another server’s.</p>
          <FindingList findings={selected.findings} />
        </section>
      )}
      {items.length > 1 && (
        <section aria-labelledby="diff-title" className="flex flex-col gap-3">
          <h2 id="diff-title" className="text-sm font-semibold">
            Changes
          </h2>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <SnapshotPicker label="From" items={items} value={from} onChange={(id) => setPair({ from: id, to: to! })} />
            <SnapshotPicker label="To" items={items} value={to} onChange={(id) => setPair({ from: from!, to: id })} />
          </div>
          {diff.isPending ? <Skeleton className="h-24" /> : diff.error ? <ErrorAlert error={diff.error} title="Could not compare the snapshots" /> : <ChangeList changes={diff.data.changes} />}
        </section>
      )}
    </div>
  );
}

function Timeline({ items, selected, onSelect }: { items: SnapshotDto[]; selected: string | null; onSelect: (index: number) => void }) {
  return (
    <Table columns={["Taken", "Source", "Tools", "Prompts", "Resources", "Templates", "Marked", "Changes"]} aria-label="Capability snapshots">
      {items.map((item, i) => (
        <Row key={item.id} className={item.id === selected ? "bg-hover" : undefined}>
          <Cell label="Taken">{formatTime(item.takenAt)}</Cell>
          <Cell label="Source">{item.source}</Cell>
          <Cell label="Tools">{item.counts.tools}</Cell>
          <Cell label="Prompts">{item.counts.prompts}</Cell>
          <Cell label="Resources">{item.counts.resources}</Cell>
          <Cell label="Templates">{item.counts.templates}</Cell>
          <Cell label="Marked">{item.findings.length ? <Badge tone="amber">{item.findings.length}</Badge> : <span className="text-muted">0</span>}</Cell>
          <Cell label="Changes">
            {i === items.length - 1 ? (
              <span className="text-muted">first</span>
            ) : (
              <button type="button" className="flex items-center gap-1.5 underline-offset-2 hover:underline" aria-pressed={item.id === selected} onClick={() => onSelect(i)}>
                {item.changes} change{item.changes === 1 ? "" : "s"}
                {item.breaking > 0 && <Badge tone="red">{item.breaking} breaking</Badge>}
              </button>
            )}
          </Cell>
        </Row>
      ))}
    </Table>
  );
}

function SnapshotPicker({ label, items, value, onChange }: { label: string; items: SnapshotDto[]; value: string | null; onChange: (id: string) => void }) {
  return (
    <label className="flex items-center gap-1.5">
      {label}
      <Select value={value ?? ""} onChange={(e) => onChange(e.target.value)} aria-label={`Compare ${label.toLowerCase()}`}>
        {items.map((item) => (
          <option key={item.id} value={item.id}>
            {formatTime(item.takenAt)} ({item.source})
          </option>
        ))}
      </Select>
    </label>
  );
}

function ChangeList({ changes }: { changes: CapabilityChange[] }) {
  if (changes.length === 0) return <p className="text-sm text-muted">No changes between these snapshots.</p>;
  return (
    <ul aria-label="Capability changes" className="flex flex-col divide-y rounded-lg border">
      {changes.map((c, i) => (
        <li key={i} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
          <Badge tone={c.breaking ? "red" : "neutral"}>{c.breaking ? "breaking" : "not breaking"}</Badge>
          <span className="text-muted">{c.kind}</span>
          <code className="font-mono">{c.name}</code>
          <span>{c.detail}</span>
        </li>
      ))}
    </ul>
  );
}
