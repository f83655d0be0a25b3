"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import type { SessionInfo } from "@/lib/domains/servers";
import { sessionKeys } from "./index";

/** A server's sessions, newest first (the session picker of the logs and traffic views). */
export function useServerSessions(serverId: string) {
  return useQuery({
    queryKey: sessionKeys.ofServer(serverId),
    queryFn: ({ signal }) => api<{ items: SessionInfo[] }>(`/servers/${encodeURIComponent(serverId)}/sessions`, { signal }).then((r) => r.items),
    staleTime: 5_000,
  });
}

