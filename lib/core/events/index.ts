/**
 * A server's status as lists show it; `offline`: its agent is away, `waiting`: a stdio entry no
 * agent serves yet, `reconnecting`: its agent came back and the console opens its session again.
 */
export type ServerStatus = "connected" | "disconnected" | "error" | "offline" | "waiting" | "reconnecting";

/** Events pushed to browsers watching a workspace (GET /api/v1/events). */
export type WorkspaceEvent =
  /** A `notifications/message` log line, as stored (`log.id` is the SessionLog row id). */
  | { type: "log"; serverId: string; sessionId: string; log: LogLineEvent }
  /** The outcome of a ping (manual or the periodic health check) of a live session. */
  | { type: "health"; serverId: string; sessionId: string; health: "healthy" | "unhealthy"; latencyMs: number | null; error: string | null; at: string }
  /** The client's replay position is gone (restart or trimmed buffer): refetch what is shown. Sent only by the stream. */
  | { type: "reset" }
  | { type: "server"; serverId: string; status: ServerStatus }
  | { type: "list_changed"; serverId: string; kind: "tools" | "resources" | "prompts" }
  /** A subscribed resource changed (`notifications/resources/updated`); `at` is when the console heard it. */
  | { type: "resource_updated"; serverId: string; uri: string; at: string }
  /** The set of subscribed resources of a server's live session changed (subscribe, unsubscribe, dropped). */
  | { type: "resource_subscriptions"; serverId: string; sessionId: string | null; uris: string[]; dropped?: string[] }
  /** A server-initiated request waiting for a person was created or settled (lib/domains/interactions). */
  | { type: "interaction"; serverId: string; interactionId: string; status: string }
  /** A running call's `notifications/progress` (match it by `requestId`, the caller's id). */
  | { type: "progress"; serverId: string; callId: string; requestId: string; progress: number; total?: number; message?: string }
  /** A task-augmented call's task changed state; `callStatus` is the call's own status. */
  | { type: "task"; serverId: string; callId: string; requestId: string; taskId: string; status: string; statusMessage: string | null; callStatus: string }
  /** A collection run started, finished a step (`stepIndex`) or ended; `status` is the run's (lib/domains/collections). */
  | { type: "collection_run"; runId: string; collectionId: string; status: string; stepIndex: number | null }
  /** A replay started, compared a call (`index`) or ended; `status` is the replay's (lib/domains/replays). */
  | { type: "replay"; replayId: string; status: string; index: number | null }
  /** A monitor's tick was claimed (ran or skipped), or one of its incidents opened or closed (lib/watch/monitors). */
  | { type: "monitor"; monitorId: string }
  /**
   * An alert was raised (as soon as it is recorded) or its deliveries were settled (lib/watch/alerts):
   * `event` is its AlertEvent, `path` the console page it links to. The console's live notice reads it.
   */
  | { type: "alert"; alertId: string; event: string; text: string; path: string; createdAt: string }
  /** A person marked the workspace's alerts read (their other tabs refresh the unread count). */
  | { type: "alerts_seen"; userId: string }
  /** A server's capabilities changed: a new snapshot was stored (lib/watch/drift). */
  | { type: "capabilities"; serverId: string; snapshotId: string }
  /**
   * A call an `approve` rule holds was created (`pending`) or decided (lib/domains/approvals); the
   * console's badge, page and live notice read it, and the held call's wait (on any instance) wakes.
   */
  | { type: "approval"; approvalId: string; status: string; serverId: string; serverName: string; name: string; requesterId: string | null; requester: string | null; approverRoles: string[]; createdAt: string }
  /** The workspace's policy rules or default changed: `version` is the rule set's new version (lib/domains/policies). */
  | { type: "policy"; version: number }
  /** A mock server was created, changed or deleted (lib/domains/mocks): lists of mocks refetch. */
  | { type: "mock"; mockId: string }
  /** A load test started, flushed its figures (about once a second) or ended; `status` is the test's (lib/domains/load-tests). */
  | { type: "load_test"; loadTestId: string; status: string };

/** A log line as the live channel carries it (the shape the logs API lists). */
interface LogLineEvent {
  id: number;
  level: string;
  logger: string | null;
  data: unknown;
  at: string;
}

/**
 * Where events go besides this process: with several instances (lib/core/cluster) every event is
 * sent through the shared channel and delivered here when it comes back, so that all instances
 * hold the same events in the same order. `send` answers false when the channel is down.
 */
export interface EventFanOut {
  send(workspaceId: string, id: string, event: WorkspaceEvent): boolean;
  /** Watchers of the workspace connected to other instances. */
  remoteWatchers(workspaceId: string): number;
  /** The number of this instance's watchers of a workspace changed. */
  watchersChanged(workspaceId: string, count: number): void;
}
