"use client";

import { useEffect, useRef } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { eventsUrl } from "@/lib/core/api-client";
import { alertKeys } from "@/lib/watch/alerts";
import { approvalKeys } from "@/lib/domains/approvals";
import { driftKeys } from "@/lib/watch/drift";
import { refreshRun } from "@/lib/domains/collections/hooks";
import { refreshReplay } from "@/lib/domains/replays/hooks";
import type { WorkspaceEvent } from "@/lib/core/events";
import { interactionKeys } from "@/lib/domains/interactions";
import { mockKeys } from "@/lib/domains/mocks";
import { loadTestKeys } from "@/lib/domains/load-tests";
import { monitorKeys } from "@/lib/watch/monitors";
import { policyKeys } from "@/lib/domains/policies";
import { qualityKeys } from "@/lib/domains/quality/hooks";
import { resourceKeys, type ResourceSubscriptionsDto } from "@/lib/domains/resources";
import { serverKeys, type CapabilityKind, type ServerDto } from "@/lib/domains/servers";

// Every domain's caches, fed by the one event stream of the tab: it lives with the console shell
// that opens it, so that no domain's hooks have to know all the others.

/**
 * Subscribes to GET /api/v1/events and keeps server statuses, capability lists, logs, health and
 * pending server requests fresh. Events carry ids, so after a dropped connection EventSource resumes with Last-Event-ID
 * and the console replays what was missed (or sends `reset`, and everything is refetched).
 */
export function useServerEvents({
  userId,
  onAlert,
  onApproval,
}: {
  userId: string;
  onAlert: (event: Extract<WorkspaceEvent, { type: "alert" }>) => void;
  onApproval?: (event: Extract<WorkspaceEvent, { type: "approval" }>) => void;
}) {
  const queryClient = useQueryClient();
  // The handler changes with the page (notices are not shown on Alerts): read the latest without reopening the stream.
  const alertHandler = useRef(onAlert);
  const approvalHandler = useRef(onApproval);
  useEffect(() => {
    alertHandler.current = onAlert;
    approvalHandler.current = onApproval;
  }, [onAlert, onApproval]);
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(eventsUrl());
    source.onmessage = (message: MessageEvent<string>) => {
      let event: WorkspaceEvent;
      try {
        event = JSON.parse(message.data) as WorkspaceEvent;
      } catch {
        return;
      }
      if (event.type === "reset") {
        void queryClient.invalidateQueries();
      } else if (event.type === "log" && typeof event.sessionId === "string") {
        void queryClient.invalidateQueries({ queryKey: ["logs", event.sessionId] });
      } else if (event.type === "interaction") {
        void queryClient.invalidateQueries({ queryKey: interactionKeys.all() });
      } else if (event.type === "task" && typeof event.serverId === "string") {
        void queryClient.invalidateQueries({ queryKey: ["calls", "tasks", event.serverId] });
        void queryClient.invalidateQueries({ queryKey: ["calls", "detail", event.callId], exact: true });
      } else if (event.type === "collection_run" && typeof event.runId === "string") {
        refreshRun(queryClient, event.runId, event.collectionId);
      } else if (event.type === "replay" && typeof event.replayId === "string") {
        refreshReplay(queryClient, event.replayId);
      } else if (event.type === "load_test" && typeof event.loadTestId === "string") {
        void queryClient.invalidateQueries({ queryKey: loadTestKeys.detail(event.loadTestId), exact: true });
        if (event.status !== "running") void queryClient.invalidateQueries({ queryKey: loadTestKeys.list(), exact: true });
      } else if (event.type === "mock") {
        void queryClient.invalidateQueries({ queryKey: mockKeys.all() });
      } else if (event.type === "monitor") {
        void queryClient.invalidateQueries({ queryKey: monitorKeys.all() });
      } else if (event.type === "alert") {
        void queryClient.invalidateQueries({ queryKey: alertKeys.all() });
        if (typeof event.alertId === "string") alertHandler.current(event);
      } else if (event.type === "approval") {
        void queryClient.invalidateQueries({ queryKey: approvalKeys.all() });
        if (typeof event.approvalId === "string") approvalHandler.current?.(event);
      } else if (event.type === "policy") {
        void queryClient.invalidateQueries({ queryKey: policyKeys.all() });
      } else if (event.type === "alerts_seen") {
        if (event.userId === userId) void queryClient.invalidateQueries({ queryKey: alertKeys.unread() });
      } else if (event.type === "capabilities" && typeof event.serverId === "string") {
        void queryClient.invalidateQueries({ queryKey: driftKeys.all(event.serverId) });
        void queryClient.invalidateQueries({ queryKey: qualityKeys.all(event.serverId) });
      } else if (event.type === "health" && typeof event.serverId === "string") {
        void queryClient.invalidateQueries({ queryKey: serverKeys.detail(event.serverId), exact: true });
      } else if (event.type === "server" && typeof event.serverId === "string") {
        queryClient.setQueryData<ServerDto[]>(serverKeys.all(), (old) =>
          old?.map((s) => (s.id === event.serverId ? { ...s, status: event.status } : s)),
        );
        void queryClient.invalidateQueries({ queryKey: serverKeys.detail(event.serverId), exact: true });
        void queryClient.invalidateQueries({ queryKey: serverKeys.all(), exact: true });
      } else if (event.type === "list_changed" && typeof event.serverId === "string") {
        const kinds: CapabilityKind[] = event.kind === "resources" ? ["resources", "resource-templates"] : [event.kind];
        for (const kind of kinds) void queryClient.invalidateQueries({ queryKey: serverKeys.capability(event.serverId, kind) });
      } else if (event.type === "resource_updated" && typeof event.serverId === "string" && typeof event.uri === "string") {
        queryClient.setQueryData(resourceKeys.updated(event.serverId, event.uri), event.at);
      } else if (event.type === "resource_subscriptions" && typeof event.serverId === "string" && Array.isArray(event.uris)) {
        queryClient.setQueryData<ResourceSubscriptionsDto>(resourceKeys.subscriptions(event.serverId), { sessionId: event.sessionId, uris: event.uris });
      }
    };
    return () => source.close();
  }, [queryClient, userId]);
}
