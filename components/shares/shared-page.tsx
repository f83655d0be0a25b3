import type { ReactNode } from "react";
import { Logo } from "@/components/console/logo";

/** The frame of a public share page: no console chrome, no navigation, no links into a workspace. */
export function SharedPage({ children, what = "call" }: { children: ReactNode; what?: "call" | "run" }) {
  return (
    <div className="flex min-h-full flex-col">
      <header className="flex h-12 shrink-0 items-center gap-3 border-b bg-panel px-6">
        <Logo />
        <span className="text-xs text-muted">{`Shared ${what === "run" ? "collection run" : "call"} · read-only`}</span>
      </header>
      <main id="main" className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-5 p-6">
        {children}
      </main>
    </div>
  );
}

/** What a revoked, expired or switched-off link shows (served with HTTP 410 by proxy.ts). */
export function ShareGone({ reason }: { reason: string }) {
  return (
    <SharedPage>
      <section data-testid="share-gone" aria-labelledby="share-gone-title" className="mx-auto mt-16 flex max-w-md flex-col gap-2 text-center">
        <h1 id="share-gone-title" className="text-lg font-semibold">
          This share link is no longer available
        </h1>
        <p className="text-sm text-muted">{reason}. Ask the person who shared it for a new link.</p>
      </section>
    </SharedPage>
  );
}

/** A share link that never existed. */
export function ShareUnknown() {
  return (
    <SharedPage>
      <section aria-labelledby="share-unknown-title" className="mx-auto mt-16 flex max-w-md flex-col gap-2 text-center">
        <h1 id="share-unknown-title" className="text-lg font-semibold">
          Share link not found
        </h1>
        <p className="text-sm text-muted">Check that the link was copied whole.</p>
      </section>
    </SharedPage>
  );
}
