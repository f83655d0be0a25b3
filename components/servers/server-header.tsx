"use client";

import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { IconImage } from "@/components/ui/icon-image";
import { RoleGate } from "@/components/ui/role-gate";
import { AgentServerNotice, ViaAgent } from "@/components/agents/server-agent-note";
import type { ServerDto } from "@/lib/servers";
import { useConnectServer, useDeleteServer, useDisconnectServer } from "@/lib/servers/hooks";
import { formatTime } from "@/components/calls/format";
import { ArchivedNotice } from "./archived-notice";
import { EditServerDialog } from "./edit-server-dialog";
import { ServerStatusLabel } from "./server-status";
import { SessionDetails } from "./session-info";

const RECONNECT_HINT = "Close this session and open a new one: the server is asked again what it offers. The session is shared by everyone using this server.";

interface ServerHeaderProps {
  server: ServerDto;
  onConnected: () => void;
  onDisconnected: () => void;
}

/** Name, endpoint, status and session of a server, with Connect (Reconnect) / Disconnect / Edit / Archive (Restore when archived). */
export function ServerHeader({ server, onConnected, onDisconnected }: ServerHeaderProps) {
  const router = useRouter();
  const connect = useConnectServer(server.id);
  const disconnect = useDisconnectServer(server.id);
  const remove = useDeleteServer();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // The session a Reconnect replaced, to say what became of it.
  const [replaced, setReplaced] = useState<{ id: string; createdAt: string } | null>(null);
  const connected = server.status === "connected";
  const sessionError = server.status === "error" && !connect.error ? server.session?.error : null;

  return (
    <div className="flex flex-col gap-3 border-b px-6 py-4">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <IconImage icons={server.session?.serverInfo?.icons} className="size-5" />
            <h1 className="truncate text-lg font-semibold tracking-tight">{server.name}</h1>
            {server.archivedAt ? <Badge tone="amber">server archived</Badge> : <ServerStatusLabel status={server.status} />}
            {server.kind !== "http" && <Badge tone="violet">{server.kind}</Badge>}
          </div>
          <p className="truncate font-mono text-xs text-muted" title={server.url ?? undefined}>
            {server.kind === "agent" && server.agentId ? (
              <ViaAgent agentId={server.agentId} />
            ) : (
              (server.url ?? (server.stdio ? [server.stdio.command, ...server.stdio.args].join(" ") : server.kind === "demo" ? "built into this console (in-process, nothing spawned)" : "—"))
            )}
            {server.url && <span className="ml-2 font-sans">· {server.transport}</span>}
          </p>
        </div>
        <Link href={`/dashboard?serverId=${encodeURIComponent(server.id)}`} className={buttonClasses("ghost")}>
          Dashboard
        </Link>
        {!server.archivedAt && (
          <div className="flex items-center gap-2">
            <RoleGate min="member">
              <Button
                variant={connected ? "secondary" : "primary"}
                busy={connect.isPending}
                title={connected ? RECONNECT_HINT : "Open a session"}
                onClick={() => {
                  disconnect.reset();
                  const previous = connected && server.session ? { id: server.session.id, createdAt: server.session.createdAt } : null;
                  setReplaced(null);
                  connect.mutate(undefined, {
                    onSuccess: () => {
                      setReplaced(previous);
                      onConnected();
                    },
                  });
                }}
              >
                {connected ? "Reconnect" : "Connect"}
              </Button>
            </RoleGate>
            <RoleGate min="member">
              <Button
                disabled={!connected}
                busy={disconnect.isPending}
                onClick={() => {
                  connect.reset();
                  setReplaced(null);
                  disconnect.mutate(undefined, { onSuccess: onDisconnected });
                }}
              >
                Disconnect
              </Button>
            </RoleGate>
            <RoleGate min="admin">
              <Button onClick={() => setEditing(true)}>Edit</Button>
            </RoleGate>
            <RoleGate min="admin">
              <Button variant="ghost" className="text-red-600 dark:text-red-400" onClick={() => setDeleting(true)}>
                Archive
              </Button>
            </RoleGate>
          </div>
        )}
      </div>
      <ArchivedNotice server={server} />

      {connect.error && (
        <Alert tone="error" title="Could not connect">
          {connect.error.message}
        </Alert>
      )}
      {sessionError && (
        <Alert tone="error" title="The last connection failed">
          {sessionError}
        </Alert>
      )}
      {replaced && connected && (
        <Alert
          tone="info"
          title="Reconnected"
          action={
            <Button size="sm" variant="ghost" onClick={() => setReplaced(null)}>
              Dismiss
            </Button>
          }
        >
          A new session replaced the one opened {formatTime(replaced.createdAt)}, which is now closed for everyone using this server; calls still
          running on it ended. Its calls stay in the history.
        </Alert>
      )}
      <ErrorAlert error={disconnect.error} title="Could not disconnect" />
      <AgentServerNotice server={server} />
      {server.session && connected && <SessionDetails session={server.session} />}

      <EditServerDialog server={server} open={editing} onClose={() => setEditing(false)} />
      <ConfirmDialog
        open={deleting}
        onClose={() => setDeleting(false)}
        title={`Archive ${server.name}?`}
        description="This closes its session and removes it from the server list. Its calls, sessions, logs and permalinks stay readable, and an admin can restore it."
        confirmLabel="Archive server"
        busy={remove.isPending}
        error={<ErrorAlert error={remove.error} />}
        onConfirm={() =>
          remove.mutate(server.id, {
            onSuccess: () => {
              setDeleting(false);
              router.push("/servers");
            },
          })
        }
      />
    </div>
  );
}
