"use client";

import { useSyncExternalStore } from "react";
import { cn } from "./cn";

const noSubscription = () => () => undefined;

function isApple(): boolean {
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform;
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/**
 * The modifier of shortcuts on this platform: ⌘ (Meta) on Apple devices, Ctrl elsewhere.
 * `aria` is its name in `aria-keyshortcuts`. The server renders Ctrl.
 */
export function useModKey(): { label: string; aria: "Meta" | "Control"; apple: boolean } {
  const apple = useSyncExternalStore(noSubscription, isApple, () => false);
  return apple ? { label: "⌘", aria: "Meta", apple } : { label: "Ctrl", aria: "Control", apple };
}

/** A key combination as keycaps, e.g. ⌘ K; hidden from assistive technology (say it with aria-keyshortcuts). */
export function Kbd({ keys, className }: { keys: string[]; className?: string }) {
  return (
    <span aria-hidden className={cn("inline-flex items-center gap-0.5", className)} data-testid="kbd">
      {keys.map((key) => (
        <kbd key={key} className="rounded border bg-panel px-1 font-sans text-[11px] leading-4 text-muted">
          {key}
        </kbd>
      ))}
    </span>
  );
}
