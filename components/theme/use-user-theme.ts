"use client";

import { useEffect, useRef } from "react";
import { useTheme } from "next-themes";

/**
 * Keeps the theme per person on a shared browser: next-themes' own key (read before the first
 * paint) holds the last choice made here; each signed-in person's choice is also kept under
 * `theme:<userId>` and put back when they sign in (the default, "system", if they never chose).
 */
export function useUserTheme(userId: string) {
  const { theme, setTheme } = useTheme();
  const restoredFor = useRef<string | null>(null);

  useEffect(() => {
    if (!theme) return;
    const key = `theme:${userId}`;
    if (restoredFor.current !== userId) {
      restoredFor.current = userId;
      // Someone who never chose here gets the default, not the previous person's choice.
      const stored = localStorage.getItem(key) ?? "system";
      if (stored !== theme) {
        setTheme(stored);
        return;
      }
    }
    localStorage.setItem(key, theme);
  }, [userId, theme, setTheme]);
}
