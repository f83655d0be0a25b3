"use client";

import { useState } from "react";
import { formatBytes } from "@/components/calls/format";
import { useCapability, type McpResource } from "@/lib/servers/hooks";
import { MasterDetail, matches } from "./master-detail";
import { ReadResource } from "./read-resource";

export function ResourcesPanel({ serverId, enabled, defaultTimeoutMs }: { serverId: string; enabled: boolean; defaultTimeoutMs?: number }) {
  const resources = useCapability(serverId, "resources", enabled);
  const [filter, setFilter] = useState("");
  const [selected, setSelected] = useState<string | null>(null);
  const all = resources.data ?? [];
  const visible = all.filter((r) => matches(filter, r.uri, r.name, r.title, r.description));
  const current = all.find((r) => r.uri === selected) ?? (selected === null ? visible[0] : undefined);

  return (
    <MasterDetail
      noun="resources"
      entries={visible.map((r) => ({ key: r.uri, primary: r.title ?? r.name ?? r.uri, secondary: r.uri }))}
      total={all.length}
      isLoading={enabled && resources.isPending}
      error={resources.error}
      filter={filter}
      onFilterChange={setFilter}
      selectedKey={current?.uri ?? null}
      onSelect={setSelected}
      emptyText="This server lists no resources."
      detail={current ? <ResourceDetail key={current.uri} serverId={serverId} resource={current} defaultTimeoutMs={defaultTimeoutMs} /> : null}
    />
  );
}

function ResourceDetail({ serverId, resource, defaultTimeoutMs }: { serverId: string; resource: McpResource; defaultTimeoutMs?: number }) {
  return (
    <article aria-label={`Resource ${resource.name ?? resource.uri}`} className="flex flex-col gap-3">
      <header className="flex flex-col gap-1">
        <h2 className="text-base font-semibold">{resource.title ?? resource.name ?? resource.uri}</h2>
        <code className="font-mono text-xs break-all text-muted">{resource.uri}</code>
        <p className="flex gap-3 text-xs text-muted">
          {resource.mimeType && <span>{resource.mimeType}</span>}
          {typeof resource.size === "number" && <span>{formatBytes(resource.size)}</span>}
        </p>
        {resource.description && <p className="max-w-3xl text-sm whitespace-pre-wrap">{resource.description}</p>}
      </header>
      <ReadResource serverId={serverId} uri={resource.uri} defaultTimeoutMs={defaultTimeoutMs} />
    </article>
  );
}
