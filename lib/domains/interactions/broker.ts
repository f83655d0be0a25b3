import "server-only";
import { publish, subscriberCount } from "@/lib/core/events/server";
import { callEndingOf, type ServerRequest, type ServerRequestOutcome } from "@/lib/mcp/server";
import type { InteractionKind, InteractionStatus, Root } from "./index";
import * as q from "./queries";
import { checkSamplingSequence } from "./sampling";
import { recordedJson } from "./recorded";
import { piece } from "@/lib/core/runtime";
import type { SecretValues } from "@/lib/core/redaction";

/** How long a request waits for a person while someone watches the workspace. */
const ATTENDED_WAIT_MS = 10 * 60_000;

/** What settles a waiting interaction: the row's new status and the answer to send to the server. */
export interface Settlement {
  status: Exclude<InteractionStatus, "pending">;
  outcome: ServerRequestOutcome;
  note: string;
  response?: Record<string, unknown>;
  answeredBy?: string;
}

// Waiting requests by interaction id, in the process runtime: route handlers (Next bundles) settle
// what the connection (lib/start's module graph, for relayed sessions) is waiting on.
const waiters = () => piece("interactionWaiters", () => new Map<string, (s: Settlement) => void>());

/** Whether an interaction still has a server request waiting in this process. */
export function isWaiting(id: string): boolean {
  return waiters().has(id);
}

/** Hands a person's answer to the waiting request. False if nothing waits (answered, expired, restarted). */
export function settleWaiting(id: string, settlement: Settlement): boolean {
  const resolve = waiters().get(id);
  if (!resolve) return false;
  resolve(settlement);
  return true;
}

interface ServerScope {
  id: string;
  workspaceId: string;
}

/** A session's server as its requests are recorded: `secrets` are what the rows must not show (lib/domains/sessions hands them in). */
interface RecordingScope extends ServerScope {
  secrets(): Promise<SecretValues>;
}

/**
 * Answers one server-initiated request. Roots are answered from the server's stored list.
 * Elicitation and sampling become a persisted interaction that waits for a person; with nobody
 * watching the workspace, the server's unattended policy declines at once or waits a bounded time.
 * A request that came while calls were in flight is cancelled as soon as they have all ended
 * (`signal`, lib/mcp's call scope): nobody is asked about a call that is over.
 * A sampling request that breaks the tool-use sequencing rules is refused (-32602) and recorded.
 */
export async function handleServerRequest(
  server: RecordingScope,
  sessionId: string,
  request: ServerRequest,
  signal: AbortSignal,
): Promise<ServerRequestOutcome> {
  const settings = await q.findServerSettings({ id: server.id });
  if (request.method === "roots/list") return { result: { roots: parseRoots(settings?.roots) } };
  const params = request.params;
  const kind: InteractionKind =
    request.method === "sampling/createMessage" ? "sampling" : params.mode === "url" ? "elicitation-url" : "elicitation-form";
  const attended = subscriberCount(server.workspaceId) > 0;
  const policy = attended ? null : settings?.unattendedPolicy === "wait" ? "wait" : "decline";
  const waitMs = attended ? ATTENDED_WAIT_MS : (settings?.unattendedWaitMs ?? 60_000);
  const secrets = await server.secrets();
  const base = {
    workspaceId: server.workspaceId,
    serverId: server.id,
    sessionId,
    kind,
    request: recordedJson({ secrets, value: params }),
    attended,
    policy,
    elicitationId: kind === "elicitation-url" && typeof params.elicitationId === "string" ? params.elicitationId : null,
  };
  const malformed = kind === "sampling" ? checkSamplingSequence(params) : null;
  if (malformed) {
    const row = await q.createInteraction({
      data: { ...base, status: "refused", outcome: `Refused: ${malformed}`, answeredAt: new Date(), response: null },
    });
    publish(server.workspaceId, { type: "interaction", serverId: server.id, interactionId: row.id, status: row.status });
    return { error: { code: -32602, message: `Invalid sampling request: ${malformed}` } };
  }
  if (policy === "decline") {
    const settlement = declined(kind, "Declined at once: nobody was watching and the server's policy is to decline");
    const row = await q.createInteraction({
      data: { ...base, status: settlement.status, outcome: settlement.note, answeredAt: new Date(), response: null },
    });
    publish(server.workspaceId, { type: "interaction", serverId: server.id, interactionId: row.id, status: row.status });
    return settlement.outcome;
  }
  const row = await q.createInteraction({ data: { ...base, deadlineAt: new Date(Date.now() + waitMs) } });
  // The waiter is registered synchronously, so an answer right after the event finds it.
  const waiting = waitForPerson(row.id, waitMs, signal, kind, policy);
  publish(server.workspaceId, { type: "interaction", serverId: server.id, interactionId: row.id, status: "pending" });
  const settlement = await waiting;
  await q.settleInteraction({
    id: row.id,
    data: {
      status: settlement.status,
      outcome: settlement.note,
      response: settlement.response ? recordedJson({ secrets, value: settlement.response }) : null,
      answeredBy: settlement.answeredBy ?? null,
      answeredAt: new Date(),
    },
  });
  publish(server.workspaceId, { type: "interaction", serverId: server.id, interactionId: row.id, status: settlement.status });
  return settlement.outcome;
}

function waitForPerson(id: string, waitMs: number, signal: AbortSignal, kind: InteractionKind, policy: string | null): Promise<Settlement> {
  return new Promise<Settlement>((resolve) => {
    const finish = (settlement: Settlement) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      waiters().delete(id);
      resolve(settlement);
    };
    const who = policy === "wait" ? "Nobody was watching and nobody answered" : "Nobody answered";
    const timer = setTimeout(() => finish(expired(kind, `${who} within ${Math.round(waitMs / 1000)} s`)), waitMs);
    const onAbort = () => finish({ status: "cancelled", note: abortNote(signal.reason), outcome: cancelledOutcome(kind) });
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    waiters().set(id, finish);
  });
}

/** Why a waiting request was abandoned: the calls it belonged to ended, the server cancelled it, or the session ended. */
function abortNote(reason: unknown): string {
  const how = callEndingOf(reason);
  return how ? `The call it belonged to ended (${how}) before anyone answered` : "The server cancelled the request, or the session ended";
}

/** A person (or the unattended policy) declined. Sampling has no decline result: a JSON-RPC error, code -1. */
export function declined(kind: InteractionKind, note: string, answeredBy?: string): Settlement {
  const outcome: ServerRequestOutcome =
    kind === "sampling" ? { error: { code: -1, message: "User rejected sampling request" } } : { result: { action: "decline" } };
  return { status: "declined", note, outcome, answeredBy, response: kind === "sampling" ? undefined : { action: "decline" } };
}

function expired(kind: InteractionKind, note: string): Settlement {
  const outcome: ServerRequestOutcome =
    kind === "sampling" ? { error: { code: -1, message: `Sampling request not answered: ${note}` } } : { result: { action: "cancel" } };
  return { status: "expired", note, outcome };
}

function cancelledOutcome(kind: InteractionKind): ServerRequestOutcome {
  return kind === "sampling" ? { error: { code: -1, message: "Sampling request cancelled" } } : { result: { action: "cancel" } };
}

/** `notifications/elicitation/complete`: marks the URL interactions with that id completed. */
export async function elicitationCompleted(server: ServerScope, elicitationId: string): Promise<void> {
  const rows = await q.markUrlCompleted({ serverId: server.id, elicitationId });
  for (const row of rows) publish(row.workspaceId, { type: "interaction", serverId: server.id, interactionId: row.id, status: "completed" });
}

/** `URLElicitationRequired` (-32042): each URL becomes an interaction a person can open; nothing waits on it. */
export async function urlElicitationsRequired(server: RecordingScope, sessionId: string, elicitations: Record<string, unknown>[]): Promise<void> {
  const secrets = await server.secrets();
  for (const params of elicitations) {
    if (params.mode !== "url" || typeof params.url !== "string") continue;
    const row = await q.createInteraction({
      data: {
        workspaceId: server.workspaceId,
        serverId: server.id,
        sessionId,
        kind: "elicitation-url",
        request: recordedJson({ secrets, value: params }),
        fromError: true,
        attended: subscriberCount(server.workspaceId) > 0,
        elicitationId: typeof params.elicitationId === "string" ? params.elicitationId : null,
      },
    });
    publish(server.workspaceId, { type: "interaction", serverId: server.id, interactionId: row.id, status: "pending" });
  }
}

/** The stored roots of a server (JSON column), tolerant of bad data. */
export function parseRoots(text: string | null | undefined): Root[] {
  try {
    const value = JSON.parse(text ?? "[]") as unknown;
    return Array.isArray(value) ? (value as Root[]).filter((r) => r && typeof r.uri === "string") : [];
  } catch {
    return [];
  }
}
