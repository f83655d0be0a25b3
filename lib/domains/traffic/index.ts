export type { ListTrafficQuery } from "./schemas";

/**
 * The requests the console records as calls (lib/domains/calls' CALL_METHODS, which imports nothing from
 * here: lib/domains/calls reaches this domain through lib/domains/sessions, so it is repeated, and a unit test
 * keeps the two equal).
 */
export const CALL_REQUEST_METHODS = ["tools/call", "resources/read", "prompts/get"] as const;

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
  /** Outgoing tools/call, resources/read and prompts/get: the recorded call that sent it, when found. */
  callId: string | null;
}

export interface TrafficPage {
  items: TrafficMessageDto[];
  nextCursor: string | null;
}

export const trafficKeys = {
  all: () => ["traffic"] as const,
  session: (sessionId: string, filter: { direction?: TrafficDirection; method?: string; q?: string }) => ["traffic", sessionId, filter] as const,
  pins: (sessionId: string) => ["traffic", sessionId, "pins"] as const,
};
