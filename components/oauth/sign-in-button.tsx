"use client";

import { Button } from "@/components/ui/button";
import { useSignInToServer } from "@/lib/domains/server-oauth/hooks";
import type { SignInRequired } from "@/lib/domains/server-oauth";

/** "Sign in" offered where a request needed the person to sign in to the server (or consent to more scope). */
export function SignInButton({ need, label }: { need: Pick<SignInRequired, "serverId" | "oauth" | "scope">; label?: string }) {
  const signIn = useSignInToServer(need.serverId);
  const text = label ?? (need.oauth === "step_up_required" ? "Sign in again to allow more" : "Sign in");
  return (
    <span className="flex flex-col items-end gap-1">
      <Button size="sm" variant="primary" busy={signIn.isPending} onClick={() => signIn.mutate(need.scope)}>
        {text}
      </Button>
      {signIn.error && <span className="text-xs">{signIn.error.message}</span>}
    </span>
  );
}
