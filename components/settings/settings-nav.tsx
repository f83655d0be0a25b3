"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { Action, Role } from "@/lib/core/access";
import { cn } from "@/components/ui/cn";
import { RoleGate } from "@/components/ui/role-gate";

/** The settings pages and the least role that may open each; the command palette lists them too. */
export const SETTINGS_PAGES: { href: string; label: string; min: Role; action?: Action }[] = [
  { href: "/settings/tokens", label: "API tokens", min: "viewer" },
  { href: "/settings/members", label: "Members", min: "viewer" },
  { href: "/settings/workspace", label: "Workspace", min: "viewer" },
  { href: "/settings/shares", label: "Share links", min: "member" },
  { href: "/settings/environments", label: "Environments", min: "viewer" },
  { href: "/settings/gateway", label: "Gateway", min: "viewer" },
  { href: "/settings/audit", label: "Audit log", min: "admin", action: "readAudit" },
];

/** The settings pages; a page the person's role cannot open is not listed. */
export function SettingsNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Settings" className="flex gap-1 overflow-x-auto border-b">
      {SETTINGS_PAGES.map((page) => {
        const active = pathname.startsWith(page.href);
        const link = (
          <Link
            key={page.href}
            href={page.href}
            aria-current={active ? "page" : undefined}
            className={cn("-mb-px border-b-2 px-3 py-1.5 text-sm font-medium whitespace-nowrap", active ? "border-accent text-fg" : "border-transparent text-muted hover:text-fg")}
          >
            {page.label}
          </Link>
        );
        return page.min === "viewer" ? (
          link
        ) : (
          <RoleGate key={page.href} min={page.min} action={page.action} hide>
            {link}
          </RoleGate>
        );
      })}
    </nav>
  );
}
