"use client";

import { useState } from "react";
import { IconImage } from "@/components/ui/icon-image";
import { useCapability } from "@/lib/servers/hooks";
import { MasterDetail, matches } from "./master-detail";
import { ToolDetail } from "./tool-detail";

export function ToolsPanel({ serverId, enabled, defaultTimeoutMs }: { serverId: string; enabled: boolean; defaultTimeoutMs?: number }) {
  const tools = useCapability(serverId, "tools", enabled);
  const [filter, setFilter] = useState("");
  const [selected, setSelected] = useState<string | null>(null);
  const all = tools.data ?? [];
  const visible = all.filter((t) => matches(filter, t.name, t.title, t.description));
  // Until one is picked, the first tool is shown.
  const current = all.find((t) => t.name === selected) ?? (selected === null ? visible[0] : undefined);

  return (
    <MasterDetail
      noun="tools"
      entries={visible.map((t) => ({
        key: t.name,
        primary: t.name,
        secondary: t.title ?? t.description,
        badges: (
          <>
            <IconImage icons={(t as { icons?: unknown }).icons} />
            {t.annotations?.destructiveHint === true && <span className="size-1.5 rounded-full bg-red-500" title="destructive" />}
          </>
        ),
      }))}
      total={all.length}
      isLoading={enabled && tools.isPending}
      error={tools.error}
      filter={filter}
      onFilterChange={setFilter}
      selectedKey={current?.name ?? null}
      onSelect={setSelected}
      emptyText="This server lists no tools."
      detail={current ? <ToolDetail key={current.name} serverId={serverId} tool={current} defaultTimeoutMs={defaultTimeoutMs} /> : null}
    />
  );
}
