"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { serverKeys, type SessionInfo } from "@/lib/servers";
import { sessionKeys, type PingOutcome } from "./index";

/** A server's sessions, newest first (the session picker of the logs and traffic views). */
export function useServerSessions(serverId: string) {
  return useQuery({
    queryKey: sessionKeys.ofServer(serverId),
    queryFn: ({ signal }) => api<{ items: SessionInfo[] }>(`/servers/${encodeURIComponent(serverId)}/sessions`, { signal }).then((r) => r.items),
    staleTime: 5_000,
  });
}

/** Pings the server's live session; the answer carries the latency or the error. */
export function usePingServer(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ ping: PingOutcome }>(`/servers/${encodeURIComponent(serverId)}/ping`, { method: "POST" }).then((r) => r.ping),
    onSettled: () => queryClient.invalidateQueries({ queryKey: serverKeys.detail(serverId), exact: true }),
  });
}
