"use client";

import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/field";
import { useSignOut, type Me } from "@/lib/auth/hooks";
import { useSwitchWorkspace } from "@/lib/workspaces/hooks";

export function ConsoleHeader({ me }: { me: Me }) {
  const router = useRouter();
  const signOut = useSignOut();
  const switchWorkspace = useSwitchWorkspace();

  return (
    <header className="flex items-center gap-3 border-b px-4">
      {me.workspaces.length > 1 ? (
        <label className="flex items-center gap-2 text-sm">
          <span className="text-muted">Workspace</span>
          <Select
            className="h-7 w-auto py-0"
            value={me.workspace.id}
            onChange={(event) => {
              switchWorkspace(event.target.value);
              router.push("/servers");
            }}
          >
            {me.workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </Select>
        </label>
      ) : (
        <p className="text-sm">
          <span className="text-muted">Workspace </span>
          <span className="font-medium" data-testid="workspace-name">
            {me.workspace.name}
          </span>
        </p>
      )}
      <div className="ml-auto flex items-center gap-3">
        <span className="text-sm text-muted" title={me.user.email}>
          {me.user.name}
        </span>
        <Button
          size="sm"
          variant="ghost"
          busy={signOut.isPending}
          onClick={() => signOut.mutate(undefined, { onSuccess: () => router.replace("/sign-in") })}
        >
          Sign out
        </Button>
      </div>
    </header>
  );
}
