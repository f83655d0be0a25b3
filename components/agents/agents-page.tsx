"use client";

import { useEffect, useId, useRef } from "react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { PageHeader } from "@/components/console/page-header";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/spinner";
import type { AgentDto, CreatePairing } from "@/lib/domains/agents";
import { useCan } from "@/lib/identity/auth/hooks";
import { useAgents, useCreatePairing } from "@/lib/domains/agents/hooks";
import { AgentFacts, AgentStatusBadge } from "./agent-status";
import { AgentServers } from "./agent-servers";
import { PairingInstructions } from "./pairing-instructions";
import { RevokeAgentButton } from "./revoke-agent";
import { RoleGate } from "@/components/ui/role-gate";

const ORDER = { online: 0, offline: 1, revoked: 2 } as const;

/** The workspace's agents, and pairing a new one. */
export function AgentsPage() {
  const pairing = useCreatePairing();
  usePairFromLink(pairing.mutate);

  return (
    <div className="flex flex-col gap-4 p-6">
      <PageHeader
        title="Agents"
        description="Agents relay the stdio MCP servers of a machine to this workspace, over a connection they open themselves."
        actions={
          <RoleGate min="member">
            <Button variant="primary" busy={pairing.isPending} onClick={() => pairing.mutate({})}>
              Pair an agent
            </Button>
          </RoleGate>
        }
      />
      <ErrorAlert error={pairing.error} title="Could not create a pairing code" />
      {pairing.data && <PairingInstructions key={pairing.data.code} pairing={pairing.data} onDone={() => pairing.reset()} />}
      <AgentList />
    </div>
  );
}

function AgentList() {
  const agents = useAgents();

  if (agents.isPending) {
    return (
      <div className="flex flex-col gap-3">
        <Skeleton className="h-28 w-full" />
        <Skeleton className="h-28 w-full" />
      </div>
    );
  }
  if (agents.error) return <ErrorAlert error={agents.error} title="Could not load agents" />;
  if (agents.data.length === 0) {
    return (
      <EmptyState title="No agents yet — pair one to reach stdio servers on your machine">
        The agent is a small command-line program. It runs the servers listed in a local config file and connects out to this console, so no port on your machine is opened.
      </EmptyState>
    );
  }
  const sorted = [...agents.data].sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.name.localeCompare(b.name));
  return (
    <ul className="flex flex-col gap-3">
      {sorted.map((agent) => (
        <li key={agent.id}>
          <AgentCard agent={agent} />
        </li>
      ))}
    </ul>
  );
}

function AgentCard({ agent }: { agent: AgentDto }) {
  const titleId = useId();
  return (
    <article aria-labelledby={titleId} className={agent.status === "revoked" ? "rounded-lg border opacity-70" : "rounded-lg border"}>
      <header className="flex items-start gap-3 border-b bg-panel px-4 py-3">
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-2">
            <h2 id={titleId} className="truncate font-semibold">
              <Link href={`/agents/${agent.id}`} className="hover:underline">
                {agent.name}
              </Link>
            </h2>
            <AgentStatusBadge status={agent.status} />
          </div>
          <AgentFacts agent={agent} className="mt-1 flex flex-wrap gap-x-5 gap-y-1 text-xs" />
        </div>
        <RevokeAgentButton agent={agent} />
      </header>
      <AgentServers agent={agent} />
    </article>
  );
}

/** `/agents?pair=1` (the command palette's "Pair agent") starts pairing once, then drops the flag. */
function usePairFromLink(pair: (input: CreatePairing) => void) {
  const router = useRouter();
  const requested = useSearchParams().get("pair") === "1";
  const can = useCan("member");
  const started = useRef(false);
  useEffect(() => {
    if (!requested || !can.allowed || started.current) return;
    started.current = true;
    pair({});
    router.replace("/agents");
  }, [requested, can.allowed, pair, router]);
}
