"use client";

import { useState } from "react";
import { useSearchParams } from "next/navigation";
import { IconImage } from "@/components/ui/icon-image";
import { Skeleton } from "@/components/ui/spinner";
import { useCall } from "@/lib/domains/calls/hooks";
import { useCapability } from "@/lib/domains/servers/hooks";
import { MasterDetail, matches } from "./master-detail";
import { ToolDetail } from "./tool-detail";

export function ToolsPanel({ serverId, enabled, defaultTimeoutMs }: { serverId: string; enabled: boolean; defaultTimeoutMs?: number }) {
  const tools = useCapability(serverId, "tools", enabled);
  const [filter, setFilter] = useState("");
  // ?tool=<name>&from=<callId> ("Edit and run" on a call) opens that tool with the call's arguments.
  const search = useSearchParams();
  const from = search.get("from");
  const source = useCall(from ?? "", from !== null);
  const [selected, setSelected] = useState<string | null>(search.get("tool"));
  const all = tools.data ?? [];
  const visible = all.filter((t) => matches(filter, t.name, t.title, t.description));
  // Until one is picked, the first tool is shown.
  const current = all.find((t) => t.name === selected) ?? (selected === null ? visible[0] : undefined);
  const s = source.data;
  const prefill = s && s.method === "tools/call" && s.serverId === serverId && s.name === current?.name ? s : undefined;

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
      detail={
        !current ? null : from && source.isPending && current.name === search.get("tool") ? (
          <Skeleton className="h-48 w-full" />
        ) : (
          <ToolDetail key={`${current.name}:${prefill?.id ?? ""}`} serverId={serverId} tool={current} defaultTimeoutMs={defaultTimeoutMs} source={prefill} />
        )
      }
    />
  );
}
