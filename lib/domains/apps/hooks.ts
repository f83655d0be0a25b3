"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { api } from "@/lib/core/api-client";
import type { CallDto } from "@/lib/domains/calls";
import { appKeys, parseUiResource, type AppCallTool, type CallAppInfo, type UiResource } from "./index";

/** Whether a call's tool has an MCP App, and where its sandbox is served. */
export function useCallApp(callId: string, enabled: boolean) {
  return useQuery({
    queryKey: appKeys.info(callId),
    queryFn: () => api<CallAppInfo>(`/calls/${encodeURIComponent(callId)}/app`),
    enabled,
    retry: false,
  });
}

/** Reads the app's UI resource through the console (recorded as an app call) and checks it. */
export function useUiResource(callId: string, uri: string | null) {
  return useQuery({
    queryKey: appKeys.resource(callId, uri ?? ""),
    enabled: uri !== null,
    retry: false,
    queryFn: async (): Promise<UiResource> => {
      const call = await appRequest(callId, "resources/read", { uri: uri! });
      if (call.status !== "ok") throw new Error(call.error?.message ?? `The resource read ended ${call.status}`);
      const parsed = parseUiResource(call.result, uri!);
      if ("error" in parsed) throw new Error(parsed.error);
      return parsed;
    },
  });
}

function appRequest(callId: string, method: "tools/call" | "resources/read", body: AppCallTool | { uri: string }): Promise<CallDto> {
  return api<{ call: CallDto }>(`/calls/${encodeURIComponent(callId)}/app/${method}`, { method: "POST", body }).then((r) => r.call);
}

/**
 * The app's requests to its server, through the API. A call that got a result resolves with it
 * (isError included); anything else rejects, and the bridge turns that into a JSON-RPC error.
 */
export function useAppRequests(callId: string) {
  const queryClient = useQueryClient();
  const settle = useCallback(
    (call: CallDto): Record<string, unknown> => {
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === "calls" && q.queryKey[1] !== "detail" });
      if (call.result && typeof call.result === "object") return call.result as Record<string, unknown>;
      throw new Error(call.error?.message ?? `The call ended ${call.status}`);
    },
    [queryClient],
  );
  return {
    callTool: useCallback((body: AppCallTool) => appRequest(callId, "tools/call", body).then(settle), [callId, settle]),
    readResource: useCallback((uri: string) => appRequest(callId, "resources/read", { uri }).then(settle), [callId, settle]),
  };
}
