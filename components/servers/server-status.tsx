import type { ServerStatus } from "@/lib/domains/servers";
import { cn } from "@/components/ui/cn";

const DOT: Record<ServerStatus, string> = {
  connected: "bg-emerald-500",
  disconnected: "bg-gray-400 dark:bg-gray-500",
  error: "bg-red-500",
  offline: "bg-amber-500",
  waiting: "bg-sky-500",
  reconnecting: "bg-amber-500 animate-pulse",
};

const EXPLAIN: Record<ServerStatus, string> = {
  connected: "A session is open",
  disconnected: "No session is open",
  error: "The last connection attempt failed",
  offline: "Its agent is away",
  waiting: "Waiting for an agent to announce it",
  reconnecting: "Its agent is back: opening the session again",
};

export function StatusDot({ status, className }: { status: ServerStatus; className?: string }) {
  return (
    <span aria-hidden title={EXPLAIN[status]} className={cn("relative inline-flex size-2 shrink-0 rounded-full", DOT[status] ?? DOT.disconnected, className)}>
      {status === "connected" && <span className="absolute inset-0 animate-ping rounded-full bg-emerald-500 opacity-40 [animation-duration:2.5s]" />}
    </span>
  );
}

/** A dot plus the status word, e.g. "connected". */
export function ServerStatusLabel({ status }: { status: ServerStatus }) {
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted" title={EXPLAIN[status]} data-testid="server-status">
      <StatusDot status={status} />
      <span>{status}</span>
    </span>
  );
}
