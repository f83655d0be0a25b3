"use client";

import { useEffect, useRef, useState } from "react";
import { Command } from "cmdk";
import { ErrorAlert } from "@/components/ui/alert";
import { Kbd, useModKey } from "@/components/ui/kbd";
import { Spinner } from "@/components/ui/spinner";
import { rankItems } from "./rank";
import { PALETTE_GROUPS, usePaletteItems, type PaletteItem } from "./use-palette-items";

interface CommandPaletteProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const SHOWN = 50;
const GROUP_HEADING =
  "[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-[11px] [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:tracking-wide [&_[cmdk-group-heading]]:text-muted [&_[cmdk-group-heading]]:uppercase";

/** Without a search, every group in order; with one, the best matches first, one flat list. */
function arrange(items: PaletteItem[], search: string): { heading: string | null; items: PaletteItem[] }[] {
  const query = search.trim();
  if (!query) {
    return PALETTE_GROUPS.map((group) => ({ heading: group, items: items.filter((item) => item.group === group).slice(0, SHOWN) })).filter((g) => g.items.length > 0);
  }
  const ranked = rankItems(items, query).slice(0, SHOWN);
  return ranked.length ? [{ heading: null, items: ranked }] : [];
}

/** ⌘K / Ctrl+K: jump to any server, tool, prompt, resource, recent call or page, or run an action (loaded lazily through ./palette). */
export function CommandPalette({ open, onOpenChange }: CommandPaletteProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const [search, setSearch] = useState("");
  const [picked, setPicked] = useState<{ search: string; id: string } | null>(null);
  const close = () => onOpenChange(false);
  const { items, rerun } = usePaletteItems(open, close);
  const mod = useModKey();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector("input")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const sections = arrange(items, search);
  // Enter takes the best match, also when more items arrive while typing, unless the person moved
  // the selection for this very search.
  const shown = sections.flatMap((section) => section.items.map((item) => item.id));
  const selected = picked && picked.search === search && shown.includes(picked.id) ? picked.id : (shown[0] ?? "");

  const choose = (item: PaletteItem) => {
    item.run();
    if (!item.keepOpen) close();
  };

  return (
    <dialog
      ref={ref}
      aria-label="Command palette"
      onClose={() => {
        setSearch("");
        setPicked(null);
        rerun.reset();
        close();
      }}
      onClick={(event) => {
        if (event.target === ref.current) close();
      }}
      className="mx-auto mt-[12vh] w-[min(36rem,calc(100vw-1rem))] rounded-lg border bg-raised p-0 text-fg shadow-2xl backdrop:bg-black/40"
    >
      {open && (
        <Command label="Command palette" shouldFilter={false} value={selected} onValueChange={(id) => setPicked({ search, id })} loop className="flex max-h-[min(32rem,70vh)] flex-col">
          <div className="flex items-center gap-2 border-b px-3">
            <svg aria-hidden viewBox="0 0 24 24" className="size-4 shrink-0 text-muted" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <circle cx="11" cy="11" r="7" />
              <path d="m20 20-3.5-3.5" />
            </svg>
            <Command.Input
              value={search}
              onValueChange={setSearch}
              placeholder="Search servers, tools, calls, pages, actions…"
              className="h-11 min-w-0 flex-1 bg-transparent text-sm outline-none placeholder:text-muted"
            />
            {rerun.isPending && <Spinner className="size-4" />}
          </div>
          {rerun.error && <ErrorAlert error={rerun.error} title="Could not run the call again" className="m-2" />}
          <Command.List className="min-h-0 flex-1 overflow-y-auto p-1">
            <Command.Empty className="px-3 py-6 text-center text-sm text-muted">Nothing matches “{search}”.</Command.Empty>
            {sections.map((section) => (
              <Command.Group key={section.heading ?? "results"} heading={section.heading ?? undefined} className={GROUP_HEADING}>
                {section.items.map((item) => (
                  <Command.Item
                    key={item.id}
                    value={item.id}
                    onSelect={() => choose(item)}
                    className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm data-[selected=true]:bg-hover"
                  >
                    <span className="truncate font-medium">{item.label}</span>
                    <span className="min-w-0 flex-1 truncate text-xs text-muted">{item.detail}</span>
                    {!section.heading && <span className="shrink-0 text-[11px] text-muted">{item.group}</span>}
                  </Command.Item>
                ))}
              </Command.Group>
            ))}
          </Command.List>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 border-t px-3 py-1.5 text-[11px] text-muted">
            <span className="inline-flex items-center gap-1">
              <Kbd keys={["↑", "↓"]} /> move
            </span>
            <span className="inline-flex items-center gap-1">
              <Kbd keys={["↵"]} /> open
            </span>
            <span className="inline-flex items-center gap-1">
              <Kbd keys={["Esc"]} /> close
            </span>
            <span className="ml-auto inline-flex items-center gap-1" data-testid="palette-shortcut">
              <Kbd keys={[mod.label, "K"]} /> anywhere
            </span>
          </p>
        </Command>
      )}
    </dialog>
  );
}
