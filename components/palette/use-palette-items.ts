"use client";

import { usePathname, useRouter } from "next/navigation";
import { formatTime } from "@/components/calls/format";
import { compareUrl } from "@/components/calls/urls";
import { NAV } from "@/components/console/sidebar";
import { SETTINGS_PAGES } from "@/components/settings/settings-nav";
import { THEMES } from "@/components/theme/theme-switch";
import { useChooseTheme } from "@/components/theme/use-user-theme";
import { auditorMayAct, roleAtLeast, type Role } from "@/lib/core/access";
import { useMe } from "@/lib/identity/auth/hooks";
import { useRecentCalls, useRerunCall } from "@/lib/domains/calls/hooks";
import { useLoadedCapabilities, useServers } from "@/lib/domains/servers/hooks";
import { useWorkItems } from "./use-work-items";

export const PALETTE_GROUPS = ["Actions", "Pages", "Servers", "Tools", "Prompts", "Resources", "Collections", "Monitors", "Environments", "Runs", "Recent calls"] as const;
export type PaletteGroup = (typeof PALETTE_GROUPS)[number];

export interface PaletteItem {
  /** Unique among all items. */
  id: string;
  group: PaletteGroup;
  label: string;
  detail?: string;
  /** Other names the item goes by (a tool's name under its title, a resource's URI): matched like the label. */
  names?: string[];
  /** More words the search looks at besides label and detail (whole words, not letter by letter). */
  keywords?: string[];
  /** Runs the item; navigation items close the palette, `keepOpen` ones close it themselves. */
  run: () => void;
  keepOpen?: boolean;
}

const RECENT_CALLS = 20;

/**
 * Everything the palette can jump to or do, for the signed-in person's role. Reads only what the
 * console already knows (see useLoadedCapabilities) plus the newest calls, and only while `open`.
 */
export function usePaletteItems(open: boolean, onDone: () => void) {
  const router = useRouter();
  const pathname = usePathname();
  const role = useMe().data?.role;
  const can = (min: Role) => role !== undefined && roleAtLeast(role, min);
  const chooseTheme = useChooseTheme();
  const servers = useServers().data ?? [];
  const capabilities = useLoadedCapabilities(servers, open);
  const recent = useRecentCalls(RECENT_CALLS, open).data ?? [];
  const rerun = useRerunCall();
  const work = useWorkItems(open);

  const go = (href: string) => () => router.push(href);
  const items: PaletteItem[] = [];

  if (can("admin")) items.push({ id: "action:add-server", group: "Actions", label: "Add server", keywords: ["new", "connect", "import"], run: go("/servers/new") });
  if (can("member")) items.push({ id: "action:pair-agent", group: "Actions", label: "Pair agent", keywords: ["stdio", "relay", "local"], run: go("/agents?pair=1") });

  const onCall = /^\/calls\/([^/]+)$/.exec(pathname)?.[1];
  const again = onCall ? decodeURIComponent(onCall) : recent.find((c) => c.method !== "resources/read" && !c.serverArchivedAt)?.id;
  if (can("member") && again) {
    const call = recent.find((c) => c.id === again);
    items.push({
      id: "action:run-again",
      group: "Actions",
      label: "Run again",
      detail: onCall ? "this call" : `the last call${call ? `: ${call.name}` : ""}`,
      keywords: ["rerun", "repeat", "retry"],
      keepOpen: true,
      run: () => rerun.mutate(again, { onSuccess: (next) => (onDone(), router.push(compareUrl(again, next.id))) }),
    });
  }
  for (const t of THEMES) items.push({ id: `action:theme-${t.value}`, group: "Actions", label: `Theme: ${t.label}`, keywords: ["appearance", "mode"], run: () => chooseTheme(t.value) });

  // The sidebar's "Settings" opens the first settings page: one item each, keyed by label.
  for (const page of NAV) items.push({ id: `page:${page.label}`, group: "Pages", label: page.label, run: go(page.href) });
  for (const page of SETTINGS_PAGES) {
    if (page.action && role === "auditor" ? auditorMayAct(page.action) : can(page.min)) items.push({ id: `page:settings:${page.label}`, group: "Pages", label: `Settings: ${page.label}`, names: [page.label], run: go(page.href) });
  }
  items.push({ id: "page:compare", group: "Pages", label: "Compare calls", run: go("/history/compare") });

  for (const server of servers) {
    items.push({ id: `server:${server.id}`, group: "Servers", label: server.name, detail: server.url ?? server.stdio?.command ?? server.status, run: go(`/servers/${server.id}`) });
  }
  for (const { server, kind, item } of capabilities) {
    const base = `/servers/${server.id}?`;
    if (kind === "tools") {
      items.push({ id: `tool:${server.id}:${item.name}`, group: "Tools", label: item.title ?? item.name, detail: server.name, names: [item.name], keywords: [item.description ?? ""], run: go(base + new URLSearchParams({ tool: item.name })) });
    } else if (kind === "prompts") {
      items.push({ id: `prompt:${server.id}:${item.name}`, group: "Prompts", label: item.title ?? item.name, detail: server.name, names: [item.name], keywords: [item.description ?? ""], run: go(base + new URLSearchParams({ prompt: item.name })) });
    } else {
      items.push({ id: `resource:${server.id}:${item.uri}`, group: "Resources", label: item.title ?? item.name ?? item.uri, detail: server.name, names: [item.uri], run: go(base + new URLSearchParams({ resource: item.uri })) });
    }
  }
  for (const { href, ...item } of work) items.push({ ...item, run: go(href) });
  for (const call of recent) {
    items.push({
      id: `call:${call.id}`,
      group: "Recent calls",
      label: call.name,
      detail: `${call.serverName ?? "archived server"} · ${call.status} · ${formatTime(call.startedAt, true)}`,
      keywords: [call.method],
      run: go(`/calls/${call.id}`),
    });
  }
  return { items, rerun };
}
