"use client";

import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { oauthKeys } from "@/lib/domains/server-oauth";
import type { LogLevel } from "@/lib/domains/logs";
import type { ToolDefinition } from "@/lib/mcp";
import type { PingOutcome } from "@/lib/domains/sessions";
import {
  serverKeys,
  type ArchivedServerDto,
  type CapabilityKind,
  type Complete,
  type Completion,
  type CreateServer,
  type ImportResult,
  type ServerDto,
  type SessionInfo,
  type UpdateServer,
} from "@/lib/domains/servers";

/** MCP list items as servers describe them (untrusted: every field may be missing or odd); a tool is lib/mcp's `ToolDefinition`. */
export interface McpResource {
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}
export interface McpResourceTemplate {
  uriTemplate: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
}
interface McpPromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}
export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: McpPromptArgument[];
}
interface CapabilityItems {
  tools: ToolDefinition;
  resources: McpResource;
  "resource-templates": McpResourceTemplate;
  prompts: McpPrompt;
}

const POLL_MS = 10_000;

function unwrapServer(body: { server: ServerDto } | ServerDto): ServerDto {
  return "server" in body ? body.server : body;
}

export function useServers() {
  return useQuery({
    queryKey: serverKeys.all(),
    queryFn: () => api<{ items: ServerDto[] }>("/servers").then((r) => r.items),
    refetchInterval: POLL_MS,
  });
}

export function useServer(id: string) {
  return useQuery({
    queryKey: serverKeys.detail(id),
    queryFn: () => api<{ server: ServerDto } | ServerDto>(`/servers/${encodeURIComponent(id)}`).then(unwrapServer),
    refetchInterval: POLL_MS,
  });
}

/** One capability list (tools, resources, templates or prompts); the API connects first if needed. */
export function useCapability<K extends CapabilityKind>(id: string, kind: K, enabled = true) {
  return useQuery({
    queryKey: serverKeys.capability(id, kind),
    queryFn: () => api<{ items: CapabilityItems[K][] }>(`/servers/${encodeURIComponent(id)}/${kind}`).then((r) => r.items ?? []),
    enabled,
    retry: false,
  });
}

/** The capability lists a quick search looks through: templates need arguments, so they are left out. */
const SEARCHED_KINDS = ["tools", "prompts", "resources"] as const;
type SearchedKind = (typeof SEARCHED_KINDS)[number];
const ANNOUNCED_AS: Record<SearchedKind, string> = { tools: "tools", prompts: "prompts", resources: "resources" };

type LoadedCapability = { [K in SearchedKind]: { server: ServerDto; kind: K; item: CapabilityItems[K] } }[SearchedKind];

/**
 * Tools, prompts and resources of every server, as far as they are known without opening a
 * session: lists already fetched in this tab, and (while `fetchConnected`) those of servers that
 * have a live session and announced the capability.
 */
export function useLoadedCapabilities(servers: ServerDto[], fetchConnected: boolean): LoadedCapability[] {
  const pairs = servers.flatMap((server) => SEARCHED_KINDS.map((kind) => ({ server, kind })));
  const results = useQueries({
    queries: pairs.map(({ server, kind }) => {
      const caps = server.status === "connected" ? server.session?.capabilities : null;
      return {
        queryKey: serverKeys.capability(server.id, kind),
        queryFn: () => api<{ items: CapabilityItems[typeof kind][] }>(`/servers/${encodeURIComponent(server.id)}/${kind}`).then((r) => r.items ?? []),
        enabled: fetchConnected && Boolean(caps && ANNOUNCED_AS[kind] in caps),
        retry: false,
      };
    }),
  });
  return pairs.flatMap(({ server, kind }, i) => ((results[i]?.data ?? []) as CapabilityItems[typeof kind][]).map((item) => ({ server, kind, item }) as LoadedCapability));
}

/**
 * Suggestions for one prompt or resource-template argument (`completion/complete`). Pass an input
 * already debounced; `enabled` only when the server declares the `completions` capability.
 */
export function useCompletion(id: string, input: Complete, enabled: boolean) {
  return useQuery<Completion>({
    queryKey: serverKeys.completion(id, input),
    queryFn: ({ signal }) =>
      api<{ completion: Completion }>(`/servers/${encodeURIComponent(id)}/complete`, { method: "POST", body: input, signal }).then((r) => r.completion),
    enabled,
    retry: false,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

/** Refreshes the server list and (exactly) one server's detail, not its capability lists. */
function invalidateServer(queryClient: QueryClient, id?: string) {
  void queryClient.invalidateQueries({ queryKey: serverKeys.all(), exact: true });
  if (id) void queryClient.invalidateQueries({ queryKey: serverKeys.detail(id), exact: true });
}

export function useCreateServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateServer) => api<{ server: ServerDto }>("/servers", { method: "POST", body: input }).then((r) => r.server),
    onSuccess: () => invalidateServer(queryClient),
  });
}

export function useUpdateServer(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateServer) =>
      api<{ server: ServerDto } | ServerDto>(`/servers/${encodeURIComponent(id)}`, { method: "PATCH", body: input }).then(unwrapServer),
    onSuccess: (server) => {
      queryClient.setQueryData(serverKeys.detail(id), server);
      invalidateServer(queryClient, id);
    },
  });
}

/** Archives a server (DELETE): it leaves the list, its history stays, an admin can restore it. */
export function useDeleteServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/servers/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: (_data, id) => {
      invalidateServer(queryClient, id);
      void queryClient.invalidateQueries({ queryKey: serverKeys.archived() });
      // Permalinks and history rows show "server archived" now.
      void queryClient.invalidateQueries({ queryKey: ["calls"] });
    },
  });
}

/** The archived servers with their call counts (what a purge would delete). */
export function useArchivedServers() {
  return useQuery({
    queryKey: serverKeys.archived(),
    queryFn: () => api<{ items: ArchivedServerDto[] }>("/servers", { query: { archived: 1 } }).then((r) => r.items),
  });
}

export function useRestoreServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ server: ServerDto }>(`/servers/${encodeURIComponent(id)}/restore`, { method: "POST" }).then((r) => r.server),
    onSuccess: (server) => {
      queryClient.setQueryData(serverKeys.detail(server.id), server);
      invalidateServer(queryClient, server.id);
      void queryClient.invalidateQueries({ queryKey: serverKeys.archived() });
      void queryClient.invalidateQueries({ queryKey: ["calls"] });
    },
  });
}

/** Deletes an archived server for good; `confirm` is the call count the person agreed to lose. */
export function usePurgeServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirm }: { id: string; confirm: number }) =>
      api<{ deletedCalls: number }>(`/servers/${encodeURIComponent(id)}/purge`, { method: "POST", body: { confirm } }),
    onSuccess: (_data, { id }) => {
      queryClient.removeQueries({ queryKey: serverKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: serverKeys.archived() });
      void queryClient.invalidateQueries({ queryKey: ["calls"] });
    },
  });
}

/** Adds the built-in demo server (or answers the workspace's existing one). */
export function useAddDemoServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ server: ServerDto }>("/servers/demo", { method: "POST" }).then((r) => r.server),
    onSuccess: () => invalidateServer(queryClient),
  });
}

export function useImportServers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: string) => api<ImportResult>("/servers/import", { method: "POST", body: { config } }),
    onSuccess: () => invalidateServer(queryClient),
  });
}

export function useConnectServer(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ session: SessionInfo }>(`/servers/${encodeURIComponent(id)}/connect`, { method: "POST" }),
    onSettled: () => {
      // A new session may list different tools; every list of this server is stale.
      void queryClient.invalidateQueries({ queryKey: serverKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: serverKeys.all(), exact: true });
    },
  });
}

export function useDisconnectServer(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>(`/servers/${encodeURIComponent(id)}/disconnect`, { method: "POST" }),
    onSettled: () => invalidateServer(queryClient, id),
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

/** Signs the caller (or the workspace) out of a server's OAuth: revokes and deletes the tokens. */
export function useSignOutOfServer(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ revoked: boolean; revocationError: string | null }>(`/servers/${encodeURIComponent(serverId)}/oauth`, { method: "DELETE" }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: oauthKeys.status(serverId) });
      void queryClient.invalidateQueries({ queryKey: serverKeys.detail(serverId) });
    },
  });
}

/** Asks the server's live session for log lines at `level` and above. */
export function useSetLogLevel(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (level: LogLevel) =>
      api<{ sessionId: string; level: LogLevel }>(`/servers/${encodeURIComponent(serverId)}/log-level`, { method: "POST", body: { level } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: serverKeys.detail(serverId), exact: true }),
  });
}
