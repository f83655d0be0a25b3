"use client";

import { useTheme } from "next-themes";

/** Whether the console shows its dark theme (the person's choice, or the system's when "system"). */
export function useDarkTheme(): boolean {
  return useTheme().resolvedTheme === "dark";
}
