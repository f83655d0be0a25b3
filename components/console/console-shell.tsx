"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Loading } from "@/components/ui/spinner";
import { useMe } from "@/lib/identity/auth/hooks";
import { useServerEvents } from "./use-server-events";
import { AlertNotices, useAlertNotices } from "@/components/alerts/alert-notices";
import { ApprovalNotices, useApprovalNotices } from "@/components/approvals/approval-notices";
import { InteractionHost } from "@/components/interactions/interaction-host";
import { Palette } from "@/components/palette/palette";
import { useUserTheme } from "@/components/theme/use-user-theme";
import { ConsoleHeader } from "./console-header";
import { Sidebar } from "./sidebar";

/** The signed-in frame: sidebar, header and the page. Strangers are sent to sign in. */
export function ConsoleShell({ children }: { children: ReactNode }) {
  const router = useRouter();
  const me = useMe();
  const signedOut = me.isSuccess && me.data === null;

  useEffect(() => {
    // Back to this exact page after signing in (a permalink, a filtered history view).
    if (signedOut) router.replace(`/sign-in?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
  }, [router, signedOut]);

  if (me.error) {
    return (
      <main className="flex min-h-full items-center justify-center p-6">
        <ErrorAlert error={me.error} title="Could not load your account" className="max-w-md" />
      </main>
    );
  }
  if (!me.data) {
    return (
      <main className="flex min-h-full items-center justify-center">
        <Loading label={signedOut ? "Redirecting to sign in…" : "Loading…"} />
      </main>
    );
  }
  return <SignedIn me={me.data}>{children}</SignedIn>;
}

function SignedIn({ me, children }: { me: NonNullable<ReturnType<typeof useMe>["data"]>; children: ReactNode }) {
  const alertNotices = useAlertNotices(me.role);
  const approvalNotices = useApprovalNotices(me.role, me.user.id);
  useServerEvents({ userId: me.user.id, onAlert: alertNotices.offer, onApproval: approvalNotices.offer });
  useUserTheme(me.user.id, me.user.theme);
  const [navOpen, setNavOpen] = useState(false);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (navOpen) document.querySelector<HTMLElement>("#sidebar a")?.focus();
  }, [navOpen]);

  const closeNav = () => {
    if (!navOpen) return;
    setNavOpen(false);
    menuButton.current?.focus();
  };

  return (
    <div className="grid h-full grid-rows-[3rem_minmax(0,1fr)] md:grid-cols-[15rem_minmax(0,1fr)]">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-raised focus:px-3 focus:py-1">
        Skip to content
      </a>
      <Sidebar open={navOpen} onClose={closeNav} />
      {navOpen && <div aria-hidden className="fixed inset-0 z-30 bg-black/40 md:hidden" onClick={closeNav} />}
      <ConsoleHeader
        me={me}
        navOpen={navOpen}
        onToggleNav={() => setNavOpen((open) => !open)}
        menuButtonRef={menuButton}
        onOpenPalette={() => setPaletteOpen(true)}
      />
      {/* The open drawer is modal: the page behind it takes no focus. */}
      <main id="main" className="min-h-0 overflow-auto" inert={navOpen}>
        {children}
      </main>
      <Palette open={paletteOpen} onOpenChange={setPaletteOpen} />
      <InteractionHost />
      <AlertNotices notices={alertNotices.notices} dismiss={alertNotices.dismiss} />
      <ApprovalNotices notices={approvalNotices.notices} dismiss={approvalNotices.dismiss} />
    </div>
  );
}
