"use client";

import { useId, type RefObject } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/field";
import { Kbd, useModKey } from "@/components/ui/kbd";
import { ThemeSwitch } from "@/components/theme/theme-switch";
import { UnreadAlertsBadge } from "@/components/alerts/unread-badge";
import { useSignOut, type Me } from "@/lib/identity/auth/hooks";
import { useSwitchWorkspace } from "@/lib/team/workspaces/hooks";
import { useUnreadAlerts } from "@/lib/watch/alerts/hooks";

interface ConsoleHeaderProps {
  me: Me;
  navOpen: boolean;
  onToggleNav: () => void;
  menuButtonRef: RefObject<HTMLButtonElement | null>;
  onOpenPalette: () => void;
}

export function ConsoleHeader({ me, navOpen, onToggleNav, menuButtonRef, onOpenPalette }: ConsoleHeaderProps) {
  const router = useRouter();
  const signOut = useSignOut();
  const switchWorkspace = useSwitchWorkspace();
  const mod = useModKey();
  const themeName = useId();

  return (
    <header className="flex min-w-0 items-center gap-2 border-b px-2 sm:gap-3 sm:px-4">
      <Button
        ref={menuButtonRef}
        variant="ghost"
        className="px-2 md:hidden"
        aria-label="Menu"
        aria-expanded={navOpen}
        aria-controls="sidebar"
        onClick={onToggleNav}
      >
        <svg aria-hidden viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M4 6h16M4 12h16M4 18h16" />
        </svg>
      </Button>
      {me.workspaces.length > 1 ? (
        <label className="flex min-w-0 items-center gap-2 text-sm">
          <span className="text-muted max-sm:sr-only">Workspace</span>
          <Select
            className="h-7 w-auto min-w-0 py-0"
            value={me.workspace.id}
            onChange={(event) => {
              switchWorkspace(event.target.value);
              router.push("/servers");
            }}
          >
            {me.workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </Select>
        </label>
      ) : (
        <p className="min-w-0 truncate text-sm">
          <span className="text-muted max-sm:sr-only">Workspace </span>
          <span className="font-medium" data-testid="workspace-name">
            {me.workspace.name}
          </span>
        </p>
      )}
      <div className="ml-auto flex items-center gap-2 sm:gap-3">
        <UnreadAlertsLink />
        <Button variant="secondary" className="text-muted max-sm:px-2" onClick={onOpenPalette} aria-keyshortcuts={`${mod.aria}+K`}>
          <svg aria-hidden viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <circle cx="11" cy="11" r="7" />
            <path d="m20 20-3.5-3.5" />
          </svg>
          <span className="max-sm:sr-only">Search…</span>
          <Kbd className="max-sm:hidden" keys={[mod.label, "K"]} />
        </Button>
        <ThemeSwitch name={themeName} className="max-md:hidden" />
        <span className="text-sm text-muted max-lg:hidden" title={me.user.email}>
          {me.user.name}
        </span>
        <Button
          size="sm"
          variant="ghost"
          busy={signOut.isPending}
          onClick={() => signOut.mutate(undefined, { onSuccess: () => router.replace("/sign-in") })}
        >
          Sign out
        </Button>
      </div>
    </header>
  );
}

/** Below md the sidebar is a drawer: unread alerts get a way in from the header, shown only when there are some. */
function UnreadAlertsLink() {
  const unread = useUnreadAlerts();
  if (!unread.data?.count) return null;
  return (
    <Link href="/alerts" className="flex items-center gap-1 rounded-md px-1.5 py-1 text-muted hover:bg-hover hover:text-fg md:hidden" data-testid="header-alerts">
      <svg aria-hidden viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      <span className="sr-only">Alerts</span>
      <UnreadAlertsBadge />
    </Link>
  );
}
