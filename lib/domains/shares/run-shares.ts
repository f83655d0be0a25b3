import "server-only";
import { decryptJson } from "@/lib/core/crypto";
import { serverSecretValues } from "@/lib/domains/server-oauth/server";
import { NO_SECRETS, secretValues, type SecretValues } from "@/lib/core/redaction";
import type { SharedRun } from "./index";
import * as q from "./queries";
import { toSharedRun } from "./shared-run";

/**
 * A shared run, redacted: with the workspace's list, the values that list masks in the steps'
 * recorded calls, the stored secrets of the servers those calls went to, and the secret values of
 * the environment the run used (the runner interpolates them into arguments, and assertion
 * messages quote results that may echo them).
 */
export async function publicRun(run: q.RunShareSource, keys: string[]): Promise<SharedRun> {
  const callIds = [...new Set(run.steps.map((s) => s.callId).filter((id): id is string => !!id))];
  const calls = callIds.length ? await q.findRunCalls({ workspaceId: run.workspaceId, ids: callIds }) : [];
  const serverIds = [...new Set(calls.map((c) => c.serverId))];
  const stored = await Promise.all([
    ...serverIds.map((serverId) => serverSecretValues({ workspaceId: run.workspaceId, serverId })),
    environmentSecrets(run.workspaceId, run.environmentName),
  ]);
  const secrets: SecretValues = { values: [...new Set(stored.flatMap((s) => s.values))].sort((a, b) => b.length - a.length) };
  return toSharedRun(run, keys, { calls, secrets });
}

async function environmentSecrets(workspaceId: string, name: string | null): Promise<SecretValues> {
  if (!name) return NO_SECRETS;
  const sealed = await q.findEnvironmentSecrets({ workspaceId, name });
  if (!sealed) return NO_SECRETS;
  const values = Object.values(decryptJson<Record<string, unknown>>(sealed));
  return secretValues(values.map((v) => (typeof v === "string" ? v : JSON.stringify(v))));
}
