"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

const SECTIONS = [
  { href: "/settings/tokens", label: "API tokens" },
  { href: "/settings/members", label: "Members" },
  { href: "/settings/workspace", label: "Workspace" },
];

/** The settings sections, as links (each section is its own page and URL). */
export function SettingsNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Settings" className="flex gap-1 border-b">
      {SECTIONS.map((section) => {
        const active = pathname.startsWith(section.href);
        return (
          <Link
            key={section.href}
            href={section.href}
            aria-current={active ? "page" : undefined}
            className={cn("-mb-px border-b-2 px-3 py-1.5 text-sm font-medium", active ? "border-accent text-fg" : "border-transparent text-muted hover:text-fg")}
          >
            {section.label}
          </Link>
        );
      })}
    </nav>
  );
}
