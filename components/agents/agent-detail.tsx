"use client";

import { useId } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/spinner";
import { StatusDot, type ServerStateView } from "@/components/servers/server-status";
import { formatTime } from "@/components/calls/format";
import type { AgentServerDto } from "@/lib/domains/agents";
import { isApiError } from "@/lib/core/api-client";
import { useAgent } from "@/lib/domains/agents/hooks";
import { AgentFacts, AgentStatusBadge } from "./agent-status";
import { exitSummary, useServerStatuses } from "./agent-servers";
import { RevokeAgentButton } from "./revoke-agent";

// Stderr is live while a process runs: poll faster than the list does.
const DETAIL_POLL_MS = 2000;

/** One agent: facts, revoke, and per server its last exit and recent stderr. */
export function AgentDetail({ id }: { id: string }) {
  const router = useRouter();
  const agent = useAgent(id, DETAIL_POLL_MS);
  const statusOf = useServerStatuses();

  if (agent.isPending) {
    return (
      <div className="flex flex-col gap-3 p-6">
        <Skeleton className="h-6 w-48" />
        <Skeleton className="h-4 w-80" />
        <Skeleton className="mt-6 h-48 w-full" />
      </div>
    );
  }
  if (agent.error) {
    return (
      <div className="p-6">
        {isApiError(agent.error, "not_found") ? (
          <EmptyState
            title="Agent not found"
            action={
              <Link href="/agents" className={buttonClasses()}>
                All agents
              </Link>
            }
          >
            It belongs to another workspace, or the link is wrong.
          </EmptyState>
        ) : (
          <ErrorAlert error={agent.error} title="Could not load the agent" />
        )}
      </div>
    );
  }

  const data = agent.data;
  return (
    <div className="flex flex-col gap-5 p-6">
      <div className="flex flex-col gap-2">
        <Link href="/agents" className="text-xs text-muted hover:text-fg hover:underline">
          ← All agents
        </Link>
        <div className="flex flex-wrap items-start gap-3">
          <div className="min-w-0 flex-1">
            <div className="flex items-center gap-2">
              <h1 className="truncate text-lg font-semibold tracking-tight">{data.name}</h1>
              <AgentStatusBadge status={data.status} />
            </div>
            <AgentFacts agent={data} className="mt-1 flex flex-wrap gap-x-5 gap-y-1 text-xs" />
          </div>
          <RevokeAgentButton agent={data} onRevoked={() => router.push("/agents")} />
        </div>
      </div>

      <section aria-labelledby="agent-servers-title" className="flex flex-col gap-3">
        <h2 id="agent-servers-title" className="text-sm font-semibold">
          Servers
        </h2>
        {data.servers.length === 0 ? (
          <p className="text-sm text-muted">No servers yet. Start the agent with a config that lists some.</p>
        ) : (
          data.servers.map((server) => <ServerOutput key={server.id} server={server} status={statusOf(server)} />)
        )}
      </section>
    </div>
  );
}

function ServerOutput({ server, status }: { server: AgentServerDto; status: ServerStateView }) {
  const titleId = useId();
  const exit = server.lastExit;
  return (
    <article aria-labelledby={titleId} className="flex flex-col rounded-lg border">
      <header className="flex items-center gap-2 border-b bg-panel px-4 py-2">
        <StatusDot state={status} />
        <h3 id={titleId} className="font-medium">
          <Link href={`/servers/${server.id}`} className="hover:underline">
            {server.name}
          </Link>
        </h3>
        <span className="text-xs text-muted">{status.label}</span>
        <span className="ml-auto text-xs text-muted">{server.online ? "announced by the agent" : "not announced right now"}</span>
      </header>
      <div className="flex flex-col gap-3 px-4 py-3 text-sm">
        <div className="flex flex-col gap-1">
          <h4 className="text-xs font-semibold text-muted uppercase">Last exit</h4>
          {exit ? (
            <>
              <p>
                <span data-testid="last-exit">{exitSummary(exit)}</span>
                <span className="text-muted">
                  {" "}
                  · exit code {exit.code ?? "—"} · signal {exit.signal ?? "—"} · {formatTime(exit.at, true)}
                </span>
              </p>
              <Lines lines={exit.stderrTail} label={`Last stderr lines of ${server.name}`} empty="It wrote nothing to stderr." />
            </>
          ) : (
            <p className="text-muted">None reported since the console started.</p>
          )}
        </div>
        <div className="flex flex-col gap-1">
          <h4 className="text-xs font-semibold text-muted uppercase">Recent stderr</h4>
          <Lines lines={server.stderr} label={`Recent stderr of ${server.name}`} empty="Nothing yet." />
        </div>
      </div>
    </article>
  );
}

function Lines({ lines, label, empty }: { lines: string[]; label: string; empty: string }) {
  if (lines.length === 0) return <p className="text-xs text-muted">{empty}</p>;
  return (
    <figure className="m-0">
      <figcaption className="sr-only">{label}</figcaption>
      <pre className="max-h-64 overflow-auto rounded-md border bg-raised px-3 py-2 font-mono text-xs whitespace-pre-wrap break-all">{lines.join("\n")}</pre>
    </figure>
  );
}
