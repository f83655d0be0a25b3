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
import type { ServerDto } from "@/lib/domains/servers";
import { useConnectServer, useDeleteServer, useDisconnectServer } from "@/lib/domains/servers/hooks";
import { formatTime } from "@/components/calls/format";
import { ArchivedNotice } from "./archived-notice";
import { EditServerDialog } from "./edit-server-dialog";
import { serverState, ServerStatusLabel } from "./server-status";
import { useOAuthStatus } from "@/lib/domains/server-oauth/hooks";
import { SessionDetails } from "./session-info";
import { SessionHealth } from "@/components/sessions/session-health";
import { RootsSection } from "@/components/interactions/roots-section";

const RECONNECT_HINT = "Close this session and open a new one: the server is asked again what it offers. The session is shared by everyone using this server.";

interface ServerHeaderProps {
  server: ServerDto;
  onConnected: () => void;
  onDisconnected: () => void;
}

/** Name, endpoint, status and session (details, health, roots folded on one line) of a server, with Connect (Reconnect) / Disconnect / Edit / Archive (Restore when archived). */
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
  // The same query as the OAuth panel's: a missing sign-in is the status people need to see first.
  const oauth = useOAuthStatus(server.id, server.authMode === "oauth-per-member" || server.authMode === "oauth-shared");
  const state = serverState(server, oauth.data);

  const endpoint =
    server.url ?? (server.stdio ? [server.stdio.command, ...server.stdio.args].join(" ") : server.kind === "demo" ? "built into this console (in-process, nothing spawned)" : "—");

  return (
    <div className="flex flex-col gap-2 border-b px-4 py-2 md:px-6" data-testid="server-header">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <div className="flex min-w-0 flex-1 basis-64 flex-wrap items-center gap-x-2 gap-y-0.5">
          <IconImage icons={server.session?.serverInfo?.icons} className="size-5" />
          <h1 className="truncate text-lg font-semibold tracking-tight">{server.name}</h1>
          {server.archivedAt ? <Badge tone="amber">server archived</Badge> : <ServerStatusLabel state={state} detail={!connect.error} />}
          {server.kind !== "http" && <Badge tone="violet">{server.kind}</Badge>}
          <p className="min-w-0 flex-1 basis-40 truncate font-mono text-xs text-muted" title={server.url ?? endpoint}>
            {server.kind === "agent" && server.agentId ? <ViaAgent agentId={server.agentId} /> : endpoint}
            {server.url && <span className="ml-2 font-sans">· {server.transport}</span>}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Link href={`/dashboard?serverId=${encodeURIComponent(server.id)}`} className={buttonClasses("ghost")}>
            Dashboard
          </Link>
          {!server.archivedAt && (
            <>
              <RoleGate action="connect">
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
              <RoleGate action="disconnect">
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
              <RoleGate action="editServer">
                <Button onClick={() => setEditing(true)}>Edit</Button>
              </RoleGate>
              <RoleGate action="archiveServer">
                <Button variant="ghost" className="text-red-600 dark:text-red-400" onClick={() => setDeleting(true)}>
                  Archive
                </Button>
              </RoleGate>
            </>
          )}
        </div>
      </div>
      {!server.archivedAt && (
        // Health, the session's particulars and the roots: one line, each opening below when asked.
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-xs">
          {connected && <SessionHealth serverId={server.id} session={server.session} />}
          {server.session && connected && (
            <details className="flex flex-col open:basis-full open:rounded-md open:border open:p-2 [&[open]>summary]:mb-2">
              <summary className="cursor-pointer font-medium">
                Session details
                {server.session.protocolVersion && <span className="ml-1.5 font-normal text-muted">{server.session.protocolVersion}</span>}
              </summary>
              <SessionDetails session={server.session} />
            </details>
          )}
          <RootsSection key={`${server.id}:${JSON.stringify(server.roots)}`} server={server} />
        </div>
      )}
      <ArchivedNotice server={server} />

      {connect.error && (
        <Alert tone="error" title="Could not connect">
          {connect.error.message}
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
