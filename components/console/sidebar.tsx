"use client";

import { useId } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { buttonClasses } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Skeleton } from "@/components/ui/spinner";
import { UnreadAlertsBadge } from "@/components/alerts/unread-badge";
import { PendingApprovalsBadge } from "@/components/approvals/pending-badge";
import { serverState, StatusDot } from "@/components/servers/server-status";
import { ThemeSwitch } from "@/components/theme/theme-switch";
import { useCan } from "@/lib/identity/auth/hooks";
import { useServers } from "@/lib/domains/servers/hooks";
import { Logo } from "./logo";

/** The main navigation, in order; the command palette lists the same pages. */
export const NAV = [
  { href: "/servers", label: "Servers" },
  { href: "/dashboard", label: "Dashboard" },
  { href: "/agents", label: "Agents" },
  { href: "/history", label: "History" },
  { href: "/collections", label: "Collections" },
  { href: "/mocks", label: "Mocks" },
  { href: "/load-tests", label: "Load tests" },
  { href: "/replays", label: "Replays" },
  { href: "/monitors", label: "Monitors" },
  { href: "/alerts", label: "Alerts" },
  { href: "/approvals", label: "Approvals" },
  { href: "/policies", label: "Policies" },
  { href: "/settings/tokens", label: "Settings" },
];

interface SidebarProps {
  /** Below the md breakpoint the sidebar is a drawer, shown only while open. */
  open: boolean;
  onClose: () => void;
}

export function Sidebar({ open, onClose }: SidebarProps) {
  const pathname = usePathname();
  const servers = useServers();
  const canAdd = useCan("addServer");
  const themeName = useId();

  return (
    <aside
      id="sidebar"
      aria-label="Sidebar"
      // A link followed from the drawer closes it; on wide screens onClose changes nothing.
      onClick={(event) => {
        if ((event.target as HTMLElement).closest("a")) onClose();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) onClose();
      }}
      className={cn(
        "row-span-2 flex min-h-0 flex-col border-r bg-panel",
        "max-md:fixed max-md:inset-y-0 max-md:left-0 max-md:z-40 max-md:w-72 max-md:max-w-[85vw] max-md:shadow-xl",
        !open && "max-md:hidden",
      )}
    >
      <div className="flex h-12 shrink-0 items-center border-b px-4">
        <Link href="/servers" aria-label="Switchboard home">
          <Logo />
        </Link>
      </div>
      <nav aria-label="Main" className="flex flex-col gap-0.5 p-2">
        {NAV.map((item) => {
          const active = item.href === "/servers" ? pathname === "/servers" : pathname.startsWith(item.href.replace(/\/tokens$/, ""));
          return (
            <Link
              key={item.href}
              href={item.href}
              aria-current={active ? "page" : undefined}
              className={cn("flex items-center gap-2 rounded-md px-2 py-1.5 font-medium", active ? "bg-hover text-fg" : "text-muted hover:bg-hover hover:text-fg")}
            >
              {item.label}
              {item.href === "/alerts" && <UnreadAlertsBadge className="ml-auto" />}
              {item.href === "/approvals" && <PendingApprovalsBadge className="ml-auto" />}
            </Link>
          );
        })}
      </nav>
      <div className="flex items-center justify-between px-4 pt-3 pb-1">
        <h2 id="sidebar-servers" className="text-[11px] font-semibold tracking-wide text-muted uppercase">
          Servers
        </h2>
      </div>
      <nav aria-labelledby="sidebar-servers" className="min-h-0 flex-1 overflow-y-auto px-2">
        {servers.isPending ? (
          <div className="flex flex-col gap-2 p-2">
            <Skeleton className="h-4 w-32" />
            <Skeleton className="h-4 w-24" />
          </div>
        ) : servers.error ? (
          <p className="px-2 text-xs text-red-600 dark:text-red-400">Could not load servers.</p>
        ) : servers.data.length === 0 ? (
          <p className="px-2 text-xs text-muted">None yet.</p>
        ) : (
          <ul className="flex flex-col gap-px">
            {servers.data.map((server) => {
              const href = `/servers/${server.id}`;
              const active = pathname === href;
              const state = serverState(server);
              return (
                <li key={server.id}>
                  <Link
                    href={href}
                    aria-current={active ? "page" : undefined}
                    className={cn("flex items-center gap-2 rounded-md px-2 py-1 text-sm", active ? "bg-hover text-fg" : "text-fg/90 hover:bg-hover")}
                  >
                    <StatusDot state={state} />
                    <span className="min-w-0 flex-1 truncate">{server.name}</span>
                    <span className="sr-only">({state.label})</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </nav>
      <div className="flex flex-col gap-2 border-t p-2">
        <ThemeSwitch name={themeName} className="self-start md:hidden" />
        {canAdd.allowed && (
          <Link href="/servers/new" className={buttonClasses("primary", "md", "w-full")}>
            Add server
          </Link>
        )}
      </div>
    </aside>
  );
}
