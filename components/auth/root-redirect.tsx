"use client";

import { useEffect } from "react";
import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Loading } from "@/components/ui/spinner";
import { useMe, useSetupStatus } from "@/lib/identity/auth/hooks";

/** `/`: first run goes to set-up, strangers to sign-in, everyone else to their servers. */
export function RootRedirect() {
  const router = useRouter();
  const setup = useSetupStatus();
  const needsSetup = setup.data?.needed;
  const me = useMe();
  const target = needsSetup === true ? "/setup" : needsSetup === false && me.isSuccess ? (me.data ? "/servers" : "/sign-in") : null;

  useEffect(() => {
    if (target) router.replace(target);
  }, [router, target]);

  return (
    <main className="flex min-h-full items-center justify-center p-6">
      {setup.error || me.error ? (
        <ErrorAlert error={setup.error ?? me.error} title="Switchboard is not answering" className="max-w-md" />
      ) : (
        <Loading label="Opening Switchboard…" />
      )}
    </main>
  );
}
