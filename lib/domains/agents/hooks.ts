"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { serverKeys } from "@/lib/domains/servers";
import { agentKeys, type AgentDto, type CreatePairing, type PairingDto } from "./index";

// Agent status changes when a socket opens or drops; poll like the server list does.
const POLL_MS = 5000;

/** The workspace's agents with status, last seen and servers. */
export function useAgents() {
  return useQuery({
    queryKey: agentKeys.all(),
    queryFn: () => api<{ items: AgentDto[] }>("/agents").then((r) => r.items),
    refetchInterval: POLL_MS,
  });
}

/** One agent, with its servers' last exit and recent stderr (poll faster while you watch stderr). */
export function useAgent(id: string, refetchInterval = POLL_MS) {
  return useQuery({
    queryKey: agentKeys.detail(id),
    queryFn: () => api<{ agent: AgentDto }>(`/agents/${encodeURIComponent(id)}`).then((r) => r.agent),
    refetchInterval,
  });
}

/** Creates a one-time pairing code; the result (code, command, expiry) is shown once. */
export function useCreatePairing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreatePairing) => api<{ pairing: PairingDto }>("/agents/pairings", { method: "POST", body: input }).then((r) => r.pairing),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: agentKeys.all() }),
  });
}

/** Revokes an agent: its socket closes at once and its servers go offline. */
export function useRevokeAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/agents/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: agentKeys.all() });
      void queryClient.invalidateQueries({ queryKey: serverKeys.all() });
    },
  });
}
