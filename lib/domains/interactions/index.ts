import type { ListInteractions } from "./schemas";
export type { RespondInteraction, ListInteractions, Root } from "./schemas";

/** What a server asks a person: a form, a link to open, or a sampling completion. */
export type InteractionKind = "elicitation-form" | "elicitation-url" | "sampling";
/** `refused`: the console rejected the request itself (a malformed tool-use sequence); nobody was asked. */
export type InteractionStatus = "pending" | "answered" | "declined" | "cancelled" | "expired" | "refused";

/** A server-initiated request waiting for (or answered by) a person. */
export interface InteractionDto {
  id: string;
  serverId: string;
  serverName: string;
  sessionId: string | null;
  callId: string | null;
  kind: InteractionKind;
  /** The request params as the server sent them (elicitation or sampling params). */
  request: Record<string, unknown>;
  status: InteractionStatus;
  response: Record<string, unknown> | null;
  answeredBy: string | null;
  /** Whether a browser was watching when the request arrived. */
  attended: boolean;
  /** The unattended policy applied ("decline" | "wait"), null when attended. */
  policy: "decline" | "wait" | null;
  outcome: string | null;
  /**
   * URL mode reported by a `URLElicitationRequired` error: nobody on the server side waits for an
   * answer; the person opens the link and re-runs the call.
   */
  fromError: boolean;
  /** URL mode: when `notifications/elicitation/complete` arrived. */
  completedAt: string | null;
  deadlineAt: string | null;
  createdAt: string;
  answeredAt: string | null;
}

export const interactionKeys = {
  all: () => ["interactions"] as const,
  list: (filter: ListInteractions) => ["interactions", filter] as const,
};
export { checkFormContent, enumValues, withFormDefaults } from "./validate";
export { checkSamplingReply, checkSamplingSequence, contentBlocks, type SamplingTool, type SamplingToolChoice, type ToolCallDraft } from "./sampling";
