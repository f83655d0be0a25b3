"use client";

import { useMutation } from "@tanstack/react-query";

/**
 * Answers the authorization request this page was sent with (its signed query) through the OAuth
 * provider's consent endpoint, then follows the answer back to the application.
 */
export function useConsent() {
  return useMutation({
    mutationFn: async ({ accept }: { accept: boolean }) => {
      const res = await fetch("/api/auth/oauth2/consent", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ accept, oauth_query: window.location.search.slice(1) }),
      });
      const body = (await res.json().catch(() => ({}))) as { url?: string; redirect_uri?: string; error_description?: string; message?: string };
      const to = body.url ?? body.redirect_uri;
      if (!res.ok || !to) throw new Error(body.error_description ?? body.message ?? `The console could not record your answer (HTTP ${res.status})`);
      window.location.assign(to);
    },
  });
}
