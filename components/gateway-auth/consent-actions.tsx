"use client";

import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useHydrated } from "@/components/ui/use-hydrated";
import { useConsent } from "@/lib/identity/gateway-auth/hooks";

/** Allow / Deny of the consent page; `denyOnly` when the person cannot allow (not a member). */
export function ConsentActions({ denyOnly = false }: { denyOnly?: boolean }) {
  const consent = useConsent();
  // In the server's HTML a click would do nothing: the buttons wait for the page's script.
  const hydrated = useHydrated();
  const busy = !hydrated || consent.isPending || consent.isSuccess;
  return (
    <div className="flex flex-col gap-3">
      <ErrorAlert error={consent.error} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button disabled={busy} onClick={() => consent.mutate({ accept: false })}>
          {denyOnly ? "Go back to the application" : "Deny"}
        </Button>
        {!denyOnly && (
          <Button variant="primary" busy={busy && consent.variables?.accept === true} disabled={busy} onClick={() => consent.mutate({ accept: true })}>
            Allow
          </Button>
        )}
      </div>
    </div>
  );
}
