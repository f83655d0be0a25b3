"use client";

import Link from "next/link";
import { Button, buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Loading } from "@/components/ui/spinner";
import { useMe } from "@/lib/identity/auth/hooks";
import { useCallWorkspace } from "@/lib/domains/calls/hooks";
import { useSwitchWorkspace } from "@/lib/team/workspaces/hooks";

/**
 * A permalink the current workspace does not hold. If another of the person's workspaces holds
 * it, offer to switch; otherwise say plainly that they have no access and whom to ask. A call
 * that does not exist looks the same, so nothing leaks about other workspaces.
 */
export function CallNoAccess({ id }: { id: string }) {
  const me = useMe();
  const switchWorkspace = useSwitchWorkspace();
  const others = (me.data?.workspaces ?? []).filter((w) => w.id !== me.data?.workspace.id);
  const found = useCallWorkspace(
    id,
    others.map((w) => w.id),
    me.isSuccess,
  );
  if (found.isPending) return <Loading label="Looking for this call…" />;
  const home = others.find((w) => w.id === found.data);
  if (home) {
    return (
      <EmptyState title={`This call is in the workspace “${home.name}”`} action={<Button variant="primary" onClick={() => switchWorkspace(home.id)}>Switch to {home.name}</Button>}>
        You are working in “{me.data?.workspace.name}”. Switch workspaces to open it.
      </EmptyState>
    );
  }
  return (
    <EmptyState
      title="You don't have access to this call"
      action={
        <Link href="/history" className={buttonClasses()}>
          Your history
        </Link>
      }
    >
      It belongs to a workspace you are not a member of, or it no longer exists. Ask a member of its workspace for access (or for a share link).
    </EmptyState>
  );
}
