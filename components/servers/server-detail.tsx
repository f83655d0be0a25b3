"use client";

import { useState } from "react";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/spinner";
import { Tabs, type TabItem } from "@/components/ui/tabs";
import { LogPanel } from "@/components/sessions/log-panel";
import { TaskPanel } from "@/components/sessions/task-panel";
import { TrafficPanel } from "@/components/sessions/traffic-panel";
import { isApiError } from "@/lib/core/api-client";
import { useServer } from "@/lib/domains/servers/hooks";
import { CapabilityTabs } from "./capability-tabs";
import { ServerHeader } from "./server-header";
import { OAuthPanel } from "@/components/oauth/oauth-panel";
import { GatewayPanel } from "@/components/gateway/gateway-panel";
import { ChangesPanel } from "@/components/drift/changes-panel";
import { QualityPanel } from "@/components/quality/quality-panel";

/**
 * Listing a capability connects a server that has no session, which is what a first visit wants.
 * After an explicit Disconnect ("off") the lists wait for Connect, so they do not reconnect behind
 * the user's back; "on" is the user asking for the lists anyway.
 */
type ListMode = "auto" | "off" | "on";

type View = "capabilities" | "logs" | "traffic" | "tasks" | "gateway" | "changes" | "quality";
const VIEWS: TabItem<View>[] = [
  { id: "capabilities", label: "Capabilities" },
  { id: "logs", label: "Logs" },
  { id: "traffic", label: "Traffic" },
  { id: "tasks", label: "Tasks" },
  { id: "gateway", label: "Gateway" },
  { id: "changes", label: "Changes" },
  { id: "quality", label: "Quality" },
];
// An archived server cannot be asked for its capabilities nor offered; its recorded history stays.
const ARCHIVED_VIEWS = VIEWS.filter((v) => v.id !== "capabilities" && v.id !== "gateway");

export function ServerDetail({ id }: { id: string }) {
  const server = useServer(id);
  // Back from signing in to the server (OAuth): list at once, even after the failed connection that asked for it.
  const search = useSearchParams();
  const [listMode, setListMode] = useState<ListMode>(search.get("oauth") === "signed-in" ? "on" : "auto");
  // A breaking-change alert links to ?tab=changes; ?tab=quality opens the lint.
  const tab = search.get("tab");
  const [view, setView] = useState<View>(tab === "changes" || tab === "quality" ? tab : "capabilities");

  if (server.isPending) {
    return (
      <div className="flex flex-col gap-3 p-6">
        <Skeleton className="h-6 w-48" />
        <Skeleton className="h-4 w-80" />
        <Skeleton className="mt-6 h-64 w-full" />
      </div>
    );
  }
  if (server.error) {
    return (
      <div className="p-6">
        {isApiError(server.error, "not_found") ? (
          <EmptyState
            title="Server not found"
            action={
              <Link href="/servers" className={buttonClasses()}>
                All servers
              </Link>
            }
          >
            It may have been purged, or it belongs to another workspace.
          </EmptyState>
        ) : (
          <ErrorAlert error={server.error} title="Could not load the server" />
        )}
      </div>
    );
  }

  const status = server.data.status;
  const enabled = listMode === "on" || status === "connected" || (listMode === "auto" && status === "disconnected");
  const archived = server.data.archivedAt !== null;
  const shown = archived && (view === "capabilities" || view === "gateway") ? "logs" : view;

  return (
    <div className="flex min-h-full flex-col">
      <ServerHeader server={server.data} onConnected={() => setListMode("auto")} onDisconnected={() => setListMode("off")} />
      {!archived && <OAuthPanel server={server.data} />}
      <Tabs label="Server views" tabs={archived ? ARCHIVED_VIEWS : VIEWS} value={shown} onChange={setView} className="pt-2">
        {shown === "capabilities" ? (
          // Keyed by the query so a link to another tool, prompt or resource of this server opens it.
          <CapabilityTabs key={search.toString()} server={server.data} enabled={enabled} onConnect={() => setListMode("on")} />
        ) : shown === "logs" ? (
          <LogPanel server={server.data} />
        ) : shown === "traffic" ? (
          <TrafficPanel server={server.data} />
        ) : shown === "gateway" ? (
          <GatewayPanel server={server.data} />
        ) : shown === "changes" ? (
          <ChangesPanel server={server.data} />
        ) : shown === "quality" ? (
          <QualityPanel server={server.data} />
        ) : (
          <TaskPanel server={server.data} />
        )}
      </Tabs>
    </div>
  );
}
