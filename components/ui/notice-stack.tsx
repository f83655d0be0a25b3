"use client";

import { useCallback, useRef, useState } from "react";
import Link from "next/link";
import { cn } from "./cn";

/** More than this and the oldest notice goes: notices are a nudge towards a page, not a second list. */
const MAX_NOTICES = 3;

/**
 * A tab's live notices of one kind, by key: `offer` shows an item once (a key already offered is
 * never shown again, so a replayed event does not come back), `remove` and `dismiss` take it away.
 * `hidden` (the page the notices point at is open) shows none.
 */
export function useNotices<T>(keyOf: (item: T) => string, hidden: boolean) {
  const [notices, setNotices] = useState<T[]>([]);
  const offered = useRef(new Set<string>());
  const dismiss = useCallback((key: string) => setNotices((list) => list.filter((n) => keyOf(n) !== key)), [keyOf]);
  /** Shows `item` unless its key was offered before or `show` is false (the key counts as offered either way). */
  const offer = useCallback(
    (item: T, show: boolean) => {
      const key = keyOf(item);
      if (offered.current.has(key)) return;
      offered.current.add(key);
      if (show) setNotices((list) => [item, ...list].slice(0, MAX_NOTICES));
    },
    [keyOf],
  );
  return { notices: hidden ? [] : notices, offer, dismiss };
}

export interface Notice {
  key: string;
  title: string;
  body: React.ReactNode;
  href: string;
  /** The link's visible text, and what a screen reader hears after it. */
  action: string;
  actionDetail: string;
}

const TONES = {
  danger: { card: "border-red-300 dark:border-red-900", title: "text-red-700 dark:text-red-300" },
  warning: { card: "border-amber-300 dark:border-amber-800", title: "text-amber-800 dark:text-amber-300" },
} as const;

/**
 * The notices of one kind in a corner (full width on a phone). The live region is always there, so
 * each new notice is announced.
 */
export function NoticeStack({ label, notices, dismiss, tone, className, testId }: { label: string; notices: Notice[]; dismiss: (key: string) => void; tone: keyof typeof TONES; className: string; testId: string }) {
  return (
    <div role="status" aria-live="polite" aria-label={label} className={cn("pointer-events-none fixed bottom-4 z-40 flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2", className)}>
      {notices.map((n) => (
        <div key={n.key} data-testid={testId} className={cn("pointer-events-auto flex items-start gap-3 rounded-lg border bg-raised p-3 text-sm shadow-lg", TONES[tone].card)}>
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <p className={cn("font-semibold", TONES[tone].title)}>{n.title}</p>
            <div className="line-clamp-3 break-words">{n.body}</div>
            <Link href={n.href} className="self-start font-medium text-accent hover:underline" onClick={() => dismiss(n.key)}>
              {n.action}
              <span className="sr-only"> {n.actionDetail}</span>
            </Link>
          </div>
          <button type="button" className="rounded p-1 text-muted hover:bg-hover hover:text-fg" aria-label="Dismiss this notice" onClick={() => dismiss(n.key)}>
            <svg aria-hidden viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <path d="M6 6l12 12M18 6 6 18" />
            </svg>
          </button>
        </div>
      ))}
    </div>
  );
}
