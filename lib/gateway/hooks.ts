"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { gatewayKeys, type ConnectedClientDto, type ExposureDto, type ExposureInput } from "./index";

const base = (serverId: string) => `/servers/${encodeURIComponent(serverId)}`;

export function useExposure(serverId: string) {
  return useQuery({
    queryKey: gatewayKeys.exposure(serverId),
    queryFn: () => api<{ exposure: ExposureDto }>(`${base(serverId)}/exposure`).then((r) => r.exposure),
  });
}

export function useSetExposure(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ExposureInput) => api<{ exposure: ExposureDto }>(`${base(serverId)}/exposure`, { method: "PUT", body: input }).then((r) => r.exposure),
    onSuccess: (exposure) => queryClient.setQueryData(gatewayKeys.exposure(serverId), exposure),
  });
}

/** Hosts connected through the gateway; refreshed while the panel is open. */
export function useConnectedClients(serverId: string, enabled: boolean) {
  return useQuery({
    queryKey: gatewayKeys.clients(serverId),
    queryFn: () => api<{ items: ConnectedClientDto[] }>(`${base(serverId)}/gateway/clients`).then((r) => r.items),
    enabled,
    refetchInterval: 5_000,
  });
}

export function useDisconnectClient(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ clientId, revoke = false }: { clientId: string; revoke?: boolean }) =>
      api<void>(`${base(serverId)}/gateway/clients/${encodeURIComponent(clientId)}${revoke ? "?revoke=true" : ""}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: gatewayKeys.clients(serverId) }),
  });
}
