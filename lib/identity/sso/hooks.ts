"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { workspaceSsoKeys, type SignInOptions, type WorkspaceProviderDto, type WorkspaceSsoDto } from "./index";
import type { RegisterSsoProvider, UpdateWorkspaceSso } from "./schemas";

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

/** Settings → Workspace → Single sign-on (admins read it, owners change it). */
export function useWorkspaceSso(enabled = true) {
  return useQuery({ queryKey: workspaceSsoKeys.settings(), queryFn: async () => (await api<{ sso: WorkspaceSsoDto }>("/workspace/sso")).sso, enabled });
}

function useSsoMutation<I>(send: (input: I) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => queryClient.invalidateQueries({ queryKey: workspaceSsoKeys.settings() }) });
}

export const useUpdateWorkspaceSso = () => useSsoMutation((input: UpdateWorkspaceSso) => api<{ sso: WorkspaceSsoDto }>("/workspace/sso", { method: "PATCH", body: input }));
export const useRegisterSsoProvider = () =>
  useSsoMutation((input: RegisterSsoProvider) => api<{ provider: WorkspaceProviderDto }>("/workspace/sso/provider", { method: "POST", body: input }));
export const useVerifySsoProvider = () => useSsoMutation(() => api<{ provider: WorkspaceProviderDto }>("/workspace/sso/provider/verify", { method: "POST" }));
export const useRemoveSsoProvider = () => useSsoMutation(() => api<{ deleted: boolean }>("/workspace/sso/provider", { method: "DELETE" }));
