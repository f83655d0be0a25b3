"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createAuthClient } from "better-auth/react";
import { api, getWorkspaceId, isApiError, setWorkspaceId } from "@/lib/core/api-client";
import { auditorMayAct, deniedReason, effectiveRole, gateOf, isAction, roleAtLeast, type Action, type Role, type TokenScopeName } from "@/lib/core/access";
import { authKeys, type ApiTokenInfo, type Setup } from "@/lib/identity/auth";
import type { MeDto, Theme } from "@/lib/team/workspaces";

/** better-auth's browser client; its endpoints live under /api/auth on this origin. */
const authClient = createAuthClient();

/** The answer of GET /api/v1/me. */
export type Me = MeDto;

const setupKeys = { status: () => ["setup"] as const };

export function useSetupStatus() {
  return useQuery({
    queryKey: setupKeys.status(),
    queryFn: () => api<{ needed: boolean; codeRequired: boolean }>("/setup"),
    staleTime: 0,
  });
}

/** The signed-in user; resolves to null (not an error) when nobody is signed in. */
export function useMe() {
  return useQuery({
    queryKey: authKeys.me(),
    queryFn: async () => {
      try {
        return await api<MeDto>("/me");
      } catch (err) {
        if (isApiError(err, "unauthorized")) return null;
        // Removed from (or deleted) the workspace this browser worked in: fall back to the first remaining one.
        if (isApiError(err, "forbidden") && getWorkspaceId()) {
          setWorkspaceId(null);
          return await api<MeDto>("/me");
        }
        throw err;
      }
    },
    retry: (count, err) => !isApiError(err) && count < 2,
  });
}

export function useSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    /** Answers the first API token, shown once. */
    mutationFn: async (input: Setup) => {
      const { token } = await api<{ token: string }>("/setup", { method: "POST", body: input });
      const signIn = await authClient.signIn.email({ email: input.email, password: input.password });
      if (signIn.error) throw new Error(signIn.error.message ?? "Set-up worked, but signing in failed");
      return { token };
    },
    onSuccess: () => queryClient.clear(),
  });
}

/** Signs in; answers the person's saved theme (null if they never chose), to apply before the console renders. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { email: string; password: string }): Promise<Theme | null> => {
      const result = await authClient.signIn.email(input);
      if (result.error) throw new Error(result.error.message || "Wrong email or password");
      const theme = (result.data?.user as { theme?: unknown } | undefined)?.theme;
      return theme === "light" || theme === "dark" || theme === "system" ? theme : null;
    },
    onSuccess: () => queryClient.clear(),
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await authClient.signOut();
    },
    onSuccess: () => queryClient.clear(),
  });
}

export function useTokens() {
  return useQuery({
    queryKey: authKeys.tokens(),
    queryFn: () => api<{ items: ApiTokenInfo[] }>("/tokens").then((r) => r.items),
  });
}

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; scopes: TokenScopeName[] }) => api<{ token: ApiTokenInfo; secret: string }>("/tokens", { method: "POST", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.tokens() }),
  });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/tokens/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.tokens() }),
  });
}

/**
 * Whether the signed-in person's role in the current workspace reaches `gate` (a role, or an
 * action the role matrix names), with the reason to show when it does not. Unknown (still
 * loading) counts as not allowed, with no reason yet.
 */
export function useCan(gate: Role | Action): { allowed: boolean; reason: string } {
  const me = useMe();
  const role = me.data?.role;
  const { min, verb } = gateOf(gate);
  const allowed = role !== undefined && (role === "auditor" && isAction(gate) ? auditorMayAct(gate) : roleAtLeast(role, min));
  return { allowed, reason: allowed || role === undefined ? "" : deniedReason(effectiveRole(role, undefined), min, verb) };
}
