"use client";

import { useEffect } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTheme } from "next-themes";
import { api } from "@/lib/core/api-client";
import { authKeys } from "@/lib/identity/auth";
import type { Me } from "@/lib/identity/auth/hooks";
import type { Theme } from "@/lib/team/workspaces";

const localKey = (userId: string) => `theme:${userId}`;

/**
 * Puts back the signed-in person's own theme when it differs from this browser's: chosen in
 * another browser, or by the previous person at a shared one. Their user row holds it; for
 * someone without one there, this browser's `theme:<userId>` (kept before accounts held it), else
 * the default, so nobody inherits the previous person's choice.
 */
export function useUserTheme(userId: string, stored: Theme | null) {
  const { setTheme } = useTheme();
  useEffect(() => {
    setTheme(stored ?? localStorage.getItem(localKey(userId)) ?? "system");
  }, [userId, stored, setTheme]);
}

/** Switches the theme here at once and saves it as the person's own (PATCH /api/v1/me). */
export function useChooseTheme(): (theme: Theme) => void {
  const { setTheme } = useTheme();
  const queryClient = useQueryClient();
  const userId = queryClient.getQueryData<Me | null>(authKeys.me())?.user.id;
  const save = useMutation({
    mutationFn: (theme: Theme) => api<{ theme: Theme | null }>("/me", { method: "PATCH", body: { theme } }),
  });
  return (theme) => {
    setTheme(theme);
    if (userId) localStorage.setItem(localKey(userId), theme);
    // The cached answer moves with the choice, so useUserTheme never puts the old one back.
    queryClient.setQueryData<Me | null>(authKeys.me(), (me) => (me ? { ...me, user: { ...me.user, theme } } : me));
    save.mutate(theme);
  };
}
