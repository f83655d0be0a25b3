import "server-only";
import crypto from "node:crypto";
import { instanceId } from "@/lib/instances";
import type { credentialUsed } from "@/lib/oauth/server";
import type { ServerSecretRow } from "@/lib/servers/server";
import type { CallError, CallMethod, CallOrigin, CallStatus } from "./index";
import { completeDurably } from "./complete";
import { recordPending, recordProgress, type CallCompletion } from "./journal";
import { callSecrets, recordedRequest, recordedText } from "./redacted";
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

export type RelayedOutcome = { result: Record<string, unknown> } | { status: Exclude<CallStatus, "pending" | "ok">; error: CallError };

interface RelayedCallHandle {
  id: string;
  progress(progress: Record<string, unknown>): void;
  finish(outcome: RelayedOutcome): Promise<void>;
}

/**
 * Records a call another MCP host sends through the console (lib/gateway) exactly like one the
 * console makes: pending before the request leaves, completed once its answer (or failure) passes.
 */
export async function beginRelayedCall(call: RelayedCall): Promise<RelayedCallHandle> {
  await takeCallRoom(call.server.workspaceId);
  const where = { workspaceId: call.server.workspaceId, serverId: call.server.id, row: call.server };
  const secrets = await callSecrets(where);
  const { credential } = call;
  const startedAt = new Date();
  const id = crypto.randomUUID();
  const requestText = JSON.stringify(call.params);
  await recordPending({
    id,
    workspaceId: call.server.workspaceId,
    serverId: call.server.id,
    sessionId: null,
    userId: call.userId,
    userName: call.userName,
    method: call.method,
    ...recordedRequest({ name: call.name, params: call.params, secrets }),
    requestId: crypto.randomUUID(),
    traceId: crypto.randomBytes(16).toString("hex"),
    rerunOfId: null,
    origin: call.origin,
    parentCallId: null,
    credentialMode: credential?.credentialMode ?? null,
    credentialUserId: credential?.credentialUserId ?? null,
    credentialUserName: credential?.credentialUserName ?? null,
    startedAt,
    requestSize: Buffer.byteLength(requestText),
    instanceId: instanceId(),
    sentInvalid: false,
    client: call.client,
  });
  const t0 = performance.now();
  let progressWrite: Promise<unknown> = Promise.resolve();
  return {
    id,
    progress(progress) {
      progressWrite = progressWrite.then(() => recordProgress(id, recordedText(JSON.stringify(progress), secrets))).catch(() => undefined);
    },
    async finish(outcome) {
      await progressWrite;
      const durationMs = performance.now() - t0;
      const result = "result" in outcome ? JSON.stringify(outcome.result) : null;
      const secretsNow = await callSecrets(where).catch(() => secrets);
      const completion: CallCompletion = {
        status: "result" in outcome ? (outcome.result.isError === true ? "error" : "ok") : outcome.status,
        isError: "result" in outcome && outcome.result.isError === true,
        result: recordedText(result, secretsNow),
        error: "error" in outcome ? recordedText(JSON.stringify(outcome.error), secretsNow) : null,
        finishedAt: new Date(startedAt.getTime() + durationMs),
        durationMs: Math.round(durationMs * 1000) / 1000,
        resultSize: result === null ? null : Buffer.byteLength(result),
      };
      await completeDurably(id, completion);
    },
  };
}
