import "server-only";
import type { Principal } from "@/lib/core/access";
import {
  callbackSteps,
  createOAuthRecorder,
  refreshSteps,
  runOAuthChecks,
  signInSteps,
  type OAuthRecorder,
  type PendingAuthorization,
} from "@/lib/mcp/server";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import type { OAuthStep, OAuthTrace, OAuthTraceKind, OAuthTraces } from "./index";
import * as q from "./queries";

/** Checks belong to the server, not to whoever's credential: one per server. */
const CHECKS_SUBJECT = "";

type TraceTarget = { server: Pick<ServerSecretRow, "id" | "workspaceId">; subject: string; userId: string | null };

/** Runs the live discovery checks for a server and keeps them as its last checks. */
export async function runChecks(principal: Principal, server: ServerSecretRow, own: { clientMetadataUrl: string | null; redirectUrl: string }): Promise<OAuthTrace> {
  const steps = await runOAuthChecks({
    serverUrl: server.url!,
    client: {
      preRegisteredClientId: server.oauthClientId,
      ...own,
      async registeredClient(issuer) {
        const row = await q.findClient({ workspaceId: server.workspaceId, issuer });
        return row ? { clientId: row.clientId, method: row.method } : null;
      },
    },
  });
  await save({ server, subject: CHECKS_SUBJECT, userId: principal.userId }, "checks", steps);
  const by = await q.findUserName({ id: principal.userId });
  return { kind: "checks", at: new Date().toISOString(), by: by?.name ?? null, steps };
}

/** The server's last checks and the subject's last sign-in and refresh. */
export async function readTraces(server: Pick<ServerSecretRow, "id">, subject: string | null): Promise<OAuthTraces> {
  const rows = await q.findTraces({ serverId: server.id, subjects: subject === null ? [CHECKS_SUBJECT] : [CHECKS_SUBJECT, subject] });
  const names = new Map((await q.findUserNames({ ids: rows.flatMap((r) => (r.userId ? [r.userId] : [])) })).map((u) => [u.id, u.name]));
  const pick = (kind: OAuthTraceKind, subj: string | null): OAuthTrace | null => {
    const row = subj === null ? undefined : rows.find((r) => r.kind === kind && r.subject === subj);
    if (!row) return null;
    return { kind, at: row.createdAt.toISOString(), by: row.userId ? (names.get(row.userId) ?? null) : null, steps: JSON.parse(row.steps) as OAuthStep[] };
  };
  return { checks: pick("checks", CHECKS_SUBJECT), signIn: pick("sign-in", subject), refresh: pick("refresh", subject) };
}

/**
 * Runs the start of a sign-in with a recording fetch and keeps what it did (or where it failed)
 * as the subject's last sign-in trace; the outcome and any error pass through unchanged.
 */
export async function traceSignInStart(
  target: TraceTarget & { preRegisteredClientId: string | null },
  base: OAuthRecorder["fetch"] | undefined,
  run: (fetchFn: OAuthRecorder["fetch"]) => Promise<PendingAuthorization>,
): Promise<PendingAuthorization> {
  const recorder = createOAuthRecorder({ base });
  let pending: PendingAuthorization;
  try {
    pending = await run(recorder.fetch);
  } catch (err) {
    await save(target, "sign-in", signInSteps({ recorded: recorder.exchanges, clientId: null, clientSource: null, authorizationUrl: null, error: err }));
    throw err;
  }
  const clientId = pending.client?.client_id ?? null;
  const clientSource =
    clientId === target.preRegisteredClientId ? "Pre-registered client" : clientId?.startsWith("https://") ? "Client ID Metadata Document" : "Client registered earlier by the workspace";
  await save(target, "sign-in", signInSteps({ recorded: recorder.exchanges, clientId, clientSource, authorizationUrl: pending.authorizationUrl }));
  return pending;
}

/** Runs the callback leg with a recording fetch and adds it to the subject's last sign-in trace. */
export async function traceCallback(target: TraceTarget, params: URLSearchParams, base: OAuthRecorder["fetch"] | undefined, run: (fetchFn: OAuthRecorder["fetch"]) => Promise<void>): Promise<void> {
  const recorder = createOAuthRecorder({ base });
  let error: unknown;
  try {
    if (!params.get("error")) await run(recorder.fetch);
  } catch (err) {
    error = err;
    throw err;
  } finally {
    const earlier = await q.findTrace({ serverId: target.server.id, subject: target.subject, kind: "sign-in" });
    const start = earlier ? (JSON.parse(earlier.steps) as OAuthStep[]).filter((s) => s.id !== "callback" && s.id !== "token") : [];
    await save(target, "sign-in", [...start, ...callbackSteps({ params, recorded: recorder.exchanges, ...(error === undefined ? {} : { error }) })]);
  }
}

/** A fetch for a live connection's OAuth store: each refresh it performs is kept as the subject's last refresh. */
export function refreshRecordingFetch(target: TraceTarget, base: OAuthRecorder["fetch"]): OAuthRecorder["fetch"] {
  let from = 0;
  const recorder = createOAuthRecorder({
    base,
    // Awaited before the SDK sees the answer, so the trace is stored by the time the refresh is used.
    onExchange: async ({ kind }) => {
      if (kind !== "refresh") return;
      const slice = recorder.exchanges.slice(from);
      from = recorder.exchanges.length;
      await save(target, "refresh", refreshSteps(slice)).catch(() => undefined);
    },
  });
  return recorder.fetch;
}

function save(target: TraceTarget, kind: OAuthTraceKind, steps: OAuthStep[]) {
  return q.upsertTrace({ workspaceId: target.server.workspaceId, serverId: target.server.id, subject: target.subject, kind, userId: target.userId, steps: JSON.stringify(steps) });
}
