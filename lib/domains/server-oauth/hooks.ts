"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { oauthKeys, oauthTraceKeys, type OAuthStatus, type OAuthTrace, type OAuthTraces } from "./index";

export function useOAuthStatus(serverId: string, enabled = true) {
  return useQuery({
    queryKey: oauthKeys.status(serverId),
    queryFn: ({ signal }) => api<OAuthStatus>(`/servers/${encodeURIComponent(serverId)}/oauth`, { signal }),
    enabled,
  });
}

/** Starts signing in and sends this tab to the authorization server; it comes back to the server page. */
export function useSignInToServer(serverId: string) {
  return useMutation({
    mutationFn: (scope?: string) =>
      api<{ authorizationUrl: string }>(`/servers/${encodeURIComponent(serverId)}/oauth/authorize`, { method: "POST", body: scope ? { scope } : {} }),
    onSuccess: ({ authorizationUrl }) => {
      if (/^https?:/i.test(authorizationUrl)) window.location.assign(authorizationUrl);
    },
  });
}


/** The server's last OAuth checks and the caller's last sign-in and refresh (secrets redacted). */
export function useOAuthTraces(serverId: string) {
  return useQuery({
    queryKey: oauthTraceKeys.traces(serverId),
    queryFn: ({ signal }) => api<OAuthTraces>(`/servers/${encodeURIComponent(serverId)}/oauth/trace`, { signal }),
  });
}

/** Runs the live discovery checks; the answer replaces the last checks in the cache. */
export function useRunOAuthChecks(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<OAuthTrace>(`/servers/${encodeURIComponent(serverId)}/oauth/checks`, { method: "POST", body: {} }),
    onSuccess: (checks) => queryClient.setQueryData<OAuthTraces>(oauthTraceKeys.traces(serverId), (old) => ({ signIn: null, refresh: null, ...old, checks })),
  });
}
