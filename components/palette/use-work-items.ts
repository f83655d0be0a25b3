"use client";

import { formatTime } from "@/components/calls/format";
import { useCollections, useEnvironments } from "@/lib/domains/collections/hooks";
import { useMonitors } from "@/lib/watch/monitors/hooks";

/** A palette item (see PaletteItem) for a page of the workspace's own work. */
export interface WorkItem {
  id: string;
  group: "Collections" | "Monitors" | "Environments" | "Runs";
  label: string;
  detail: string;
  names?: string[];
  keywords?: string[];
  href: string;
}

/**
 * The workspace's own work as palette items: collections, monitors, environments and each
 * collection's last run. Loaded only while the palette is open.
 */
export function useWorkItems(open: boolean): WorkItem[] {
  const collections = useCollections(open).data ?? [];
  const monitors = useMonitors(open).data ?? [];
  const environments = useEnvironments(open).data ?? [];
  const items: WorkItem[] = [];
  for (const c of collections) {
    const steps = c.steps.length === 1 ? "1 step" : `${c.steps.length} steps`;
    items.push({ id: `collection:${c.id}`, group: "Collections", label: c.name, detail: steps, keywords: [c.description ?? ""], href: `/collections/${c.id}` });
  }
  for (const m of monitors) {
    items.push({ id: `monitor:${m.id}`, group: "Monitors", label: m.name, detail: `${m.collectionName} · ${m.state}`, href: `/monitors/${m.id}` });
  }
  for (const e of environments) {
    items.push({ id: `environment:${e.id}`, group: "Environments", label: e.name, detail: "environment", href: "/settings/environments" });
  }
  for (const c of collections) {
    const run = c.lastRun;
    if (!run) continue;
    items.push({
      id: `run:${run.id}`,
      group: "Runs",
      label: `${c.name}: last run`,
      detail: `${run.status} · ${formatTime(run.startedAt, true)}${run.environment ? ` · ${run.environment}` : ""}`,
      names: [c.name, run.id],
      keywords: [run.origin],
      href: `/runs/${run.id}`,
    });
  }
  return items;
}
