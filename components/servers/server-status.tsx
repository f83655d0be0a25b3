import type { ServerDto, ServerStatus } from "@/lib/domains/servers";
import type { OAuthStatus } from "@/lib/domains/server-oauth";
import { cn } from "@/components/ui/cn";

/**
 * A server's one status, as every place shows it: `connected` (a session is open and answers),
 * `unhealthy` (a session is open but its last ping failed), `unreachable` (no session could be
 * opened: the last attempt failed, or its agent is away), `signed-out` (it needs an OAuth sign-in
 * that is missing), and the quiet ones: `disconnected` (nobody opened a session) and `reconnecting`.
 */
export type ServerState = "connected" | "unhealthy" | "unreachable" | "signed-out" | "disconnected" | "reconnecting";

export interface ServerStateView {
  state: ServerState;
  /** The word shown: "connected", "unhealthy", "unreachable", "signed out", "disconnected", "reconnecting". */
  label: string;
  /** Why, in a sentence: the failure's own message when there is one. */
  reason: string;
  /** Whether something is wrong (the reason is then shown beside the word, not only on hover). */
  problem: boolean;
}

const LABEL: Record<ServerState, string> = {
  connected: "connected",
  unhealthy: "unhealthy",
  unreachable: "unreachable",
  "signed-out": "signed out",
  disconnected: "disconnected",
  reconnecting: "reconnecting",
};

const view = (state: ServerState, reason: string): ServerStateView => ({ state, label: LABEL[state], reason, problem: state === "unhealthy" || state === "unreachable" || state === "signed-out" });

type StateInput = Pick<ServerDto, "status"> & Partial<Pick<ServerDto, "session" | "authMode" | "name">>;

/**
 * The one derivation of a server's status from its session, its last health check and (where the
 * page knows it) the caller's OAuth sign-in. A sign-in that is missing wins: nothing works without it.
 */
export function serverState(server: StateInput, oauth?: Pick<OAuthStatus, "signedIn"> | null): ServerStateView {
  const needsSignIn = server.authMode === "oauth-per-member" || server.authMode === "oauth-shared";
  const session = server.session ?? null;
  // Without the caller's OAuth status (lists), a last connect refused for want of a sign-in says the same.
  const refusedForSignIn = server.status === "error" && session?.errorKind === "sign_in_required";
  if (needsSignIn && (oauth ? !oauth.signedIn : refusedForSignIn)) {
    return view("signed-out", server.authMode === "oauth-shared" ? "Nobody has signed the workspace in to this server yet" : "You have not signed in to this server yet");
  }
  switch (server.status as ServerStatus) {
    case "connected":
      return session?.health === "unhealthy"
        ? view("unhealthy", session.healthError ? `A session is open, but its last ping failed: ${session.healthError}` : "A session is open, but its last ping failed")
        : view("connected", "A session is open");
    case "error":
      return view("unreachable", session?.error ? `The last connection attempt failed: ${session.error}` : "The last connection attempt failed");
    case "offline":
      return view("unreachable", "Its agent is away");
    case "waiting":
      return view("unreachable", "Waiting for an agent to announce it");
    case "reconnecting":
      return view("reconnecting", "Its agent is back: opening the session again");
    default:
      return view("disconnected", "No session is open");
  }
}

const DOT: Record<ServerState, string> = {
  connected: "bg-emerald-500",
  disconnected: "bg-gray-400 dark:bg-gray-500",
  unhealthy: "bg-red-500",
  unreachable: "bg-red-500",
  "signed-out": "bg-amber-500",
  reconnecting: "bg-amber-500 animate-pulse",
};

export function StatusDot({ state, className }: { state: ServerStateView; className?: string }) {
  return (
    <span aria-hidden title={state.reason} className={cn("relative inline-flex size-2 shrink-0 rounded-full", DOT[state.state], className)}>
      {state.state === "connected" && <span className="absolute inset-0 animate-ping rounded-full bg-emerald-500 opacity-40 [animation-duration:2.5s]" />}
    </span>
  );
}

/** A dot plus the status word, e.g. "connected"; `detail` also shows a problem's reason beside it (the server page). */
export function ServerStatusLabel({ state, detail }: { state: ServerStateView; detail?: boolean }) {
  return (
    <span className="inline-flex min-w-0 items-center gap-1.5 text-xs text-muted" title={state.reason}>
      <StatusDot state={state} />
      <span data-testid="server-status" data-state={state.state} className={cn(state.problem && "font-medium text-red-700 dark:text-red-300")}>
        {state.label}
      </span>
      {detail && state.problem && (
        <span data-testid="server-status-reason" className="min-w-0 break-words text-red-700 dark:text-red-300">
          — {state.reason}
        </span>
      )}
    </span>
  );
}
