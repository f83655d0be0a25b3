"use client";

import { lazy, Suspense, useEffect, useState } from "react";
import { useModKey } from "@/components/ui/kbd";

// cmdk and the palette's queries load the first time the palette opens, not with every page.
const CommandPalette = lazy(() => import("./command-palette").then((m) => ({ default: m.CommandPalette })));

/** ⌘K / Ctrl+K anywhere in the console toggles the command palette. */
export function Palette({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const mod = useModKey();
  const [opened, setOpened] = useState(false);
  if (open && !opened) setOpened(true);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // On Apple platforms Ctrl+K stays the text fields' "delete to end of line".
      if ((mod.apple ? event.metaKey : event.ctrlKey) && !event.altKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        onOpenChange(!open);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, onOpenChange, mod.apple]);

  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <CommandPalette open={open} onOpenChange={onOpenChange} />
    </Suspense>
  );
}
