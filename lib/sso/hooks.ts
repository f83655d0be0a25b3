"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { SignInOptions } from "./index";

const optionKeys = { signIn: () => ["sso", "options"] as const };

/** The identity providers the sign-in page offers. */
export function useSignInOptions() {
  return useQuery({ queryKey: optionKeys.signIn(), queryFn: () => api<SignInOptions>("/sso"), staleTime: 60_000 });
}

/** Starts a sign-in at the identity provider: better-auth answers the IdP's URL, where this tab goes. */
export function useSsoSignIn() {
  return useMutation({
    mutationFn: async ({ providerId, next }: { providerId: string; next: string }) => {
      const res = await fetch("/api/auth/sign-in/sso", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ providerId, callbackURL: next, errorCallbackURL: "/sign-in" }),
      });
      const body = (await res.json().catch(() => null)) as { url?: string; message?: string } | null;
      if (!res.ok || !body?.url) throw new Error(body?.message ?? `The sign-in could not start (${res.status})`);
      window.location.assign(body.url);
    },
  });
}
