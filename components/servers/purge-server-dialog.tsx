"use client";

import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Skeleton } from "@/components/ui/spinner";
import { useArchivedServers, usePurgeServer } from "@/lib/domains/servers/hooks";

/**
 * "Purge for good" of an archived server. The confirmation names how many calls go; the API
 * checks that number against the current count, so a stale dialog cannot delete more than it said.
 */
export function PurgeServerDialog({ server, open, onClose }: { server: { id: string; name: string }; open: boolean; onClose: () => void }) {
  const router = useRouter();
  const archived = useArchivedServers();
  const purge = usePurgeServer();
  const count = archived.data?.find((s) => s.id === server.id)?.callCount;
  const close = () => {
    purge.reset();
    onClose();
  };

  return (
    <ConfirmDialog
      open={open}
      onClose={close}
      title={`Purge “${server.name}” for good?`}
      description={
        count === undefined ? (
          <Skeleton className="h-4 w-64" />
        ) : (
          <>
            This deletes {count} call{count === 1 ? "" : "s"}, with the server&apos;s sessions, logs and traffic. Their permalinks stop working. This cannot be undone.
          </>
        )
      }
      confirmLabel={count === undefined ? "Purge server" : `Delete ${count} call${count === 1 ? "" : "s"}`}
      busy={purge.isPending || count === undefined}
      error={<ErrorAlert error={purge.error ?? archived.error} />}
      onConfirm={() =>
        count !== undefined &&
        purge.mutate(
          { id: server.id, confirm: count },
          {
            onSuccess: () => {
              close();
              router.push("/servers");
            },
            onError: () => void archived.refetch(),
          },
        )
      }
    />
  );
}
