import "server-only";
import crypto from "node:crypto";
import type { credentialUsed } from "@/lib/domains/server-oauth/server";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import type { CallError, CallMethod, CallOrigin, CallStatus } from "./index";
import { completeDurably } from "./complete";
import { recordPending, recordProgress } from "./journal";
import { callSecrets, recordedText } from "./redacted";
import { callCompletion, pendingCall } from "./row";
import { takeCallRoom } from "./quota";

interface RelayedCall {
  server: ServerSecretRow;
  userId: string;
  userName: string;
  method: CallMethod;
  name: string;
  params: Record<string, unknown>;
  origin: CallOrigin;
  /** The host that made the call ("name version"). */
  client: string | null;
  /** Whose OAuth credential the session runs with (`credentialUsed`), looked up once per session by the caller. */
  credential: Awaited<ReturnType<typeof credentialUsed>>;
}

export type HostCallOutcome = { result: Record<string, unknown> } | { status: Exclude<CallStatus, "pending" | "ok">; error: CallError };

interface RelayedCallHandle {
  id: string;
  progress(progress: Record<string, unknown>): void;
  finish(outcome: HostCallOutcome): Promise<void>;
}

/**
 * Records a call another MCP host sends through the console (lib/gateway) exactly like one the
 * console makes: pending before the request leaves, completed once its answer (or failure) passes.
 */
export async function beginHostCall(call: RelayedCall): Promise<RelayedCallHandle> {
  await takeCallRoom(call.server.workspaceId);
  const where = { workspaceId: call.server.workspaceId, serverId: call.server.id, row: call.server };
  const secrets = await callSecrets(where);
  const { server, params, ...asked } = call;
  const startedAt = new Date();
  const pending = pendingCall({ ...asked, workspaceId: server.workspaceId, serverId: server.id, sessionId: null, params, secrets, requestId: crypto.randomUUID(), sentInvalid: false, startedAt });
  await recordPending(pending);
  const { id } = pending;
  const t0 = performance.now();
  let progressWrite: Promise<unknown> = Promise.resolve();
  return {
    id,
    progress(progress) {
      progressWrite = progressWrite.then(() => recordProgress(id, recordedText(JSON.stringify(progress), secrets))).catch(() => undefined);
    },
    async finish(ended) {
      await progressWrite;
      const durationMs = performance.now() - t0;
      const outcome = "result" in ended ? { status: ended.result.isError === true ? ("error" as const) : ("ok" as const), result: ended.result } : ended;
      const secretsNow = await callSecrets(where).catch(() => secrets);
      await completeDurably(id, callCompletion({ outcome, secrets: secretsNow, startedAt, durationMs }));
    },
  };
}
