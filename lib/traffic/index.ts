export type { ListTrafficQuery } from "./schemas";

export const TRAFFIC_DIRECTIONS = ["in", "out"] as const;
export type TrafficDirection = (typeof TRAFFIC_DIRECTIONS)[number];
export type TrafficKind = "request" | "response" | "error" | "notification";

/** One recorded JSON-RPC message. `body` is the message as JSON text (secrets scrubbed, maybe cut). */
export interface TrafficMessageDto {
  id: number;
  sessionId: string;
  direction: TrafficDirection;
  kind: TrafficKind;
  method: string | null;
  /** The JSON-RPC id as JSON text. */
  rpcId: string | null;
  size: number;
  durationMs: number | null;
  body: string;
  truncated: boolean;
  at: string;
}

export interface TrafficPage {
  items: TrafficMessageDto[];
  nextCursor: string | null;
}

export const trafficKeys = {
  all: () => ["traffic"] as const,
  session: (sessionId: string, filter: { direction?: TrafficDirection; method?: string; q?: string }) => ["traffic", sessionId, filter] as const,
};
