"use client";

import { useHydrated } from "@/components/ui/use-hydrated";
import { useTheme } from "next-themes";
import { cn } from "@/components/ui/cn";
import { useChooseTheme } from "./use-user-theme";

export const THEMES = [
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
  { value: "system", label: "System" },
] as const;


/** Light / dark / system as three radio buttons; the choice is kept in this browser and on the person's account. */
export function ThemeSwitch({ name, className }: { name: string; className?: string }) {
  const { theme } = useTheme();
  const choose = useChooseTheme();
  // The stored choice is only known in the browser; the server renders none checked.
  const mounted = useHydrated();
  const current = mounted ? (theme ?? "system") : undefined;

  return (
    <fieldset className={cn("flex items-center rounded-md border p-0.5", className)}>
      <legend className="sr-only">Theme</legend>
      {THEMES.map((t) => (
        <label
          key={t.value}
          title={`${t.label} theme`}
          className={cn(
            "flex size-6 cursor-pointer items-center justify-center rounded text-muted hover:text-fg has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring",
            current === t.value && "bg-hover text-fg",
          )}
        >
          <input type="radio" name={name} value={t.value} checked={current === t.value} onChange={() => choose(t.value)} className="sr-only" />
          <span className="sr-only">{t.label}</span>
          <ThemeIcon theme={t.value} />
        </label>
      ))}
    </fieldset>
  );
}

function ThemeIcon({ theme }: { theme: (typeof THEMES)[number]["value"] }) {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      {theme === "light" ? (
        <>
          <circle cx="12" cy="12" r="4" />
          <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
        </>
      ) : theme === "dark" ? (
        <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
      ) : (
        <>
          <rect x="3" y="4" width="18" height="12" rx="2" />
          <path d="M8 20h8M12 16v4" />
        </>
      )}
    </svg>
  );
}
