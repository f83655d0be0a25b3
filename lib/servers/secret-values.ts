import "server-only";
import { decryptJson } from "@/lib/crypto";
import { storedOAuthSecrets } from "@/lib/oauth/server";
import { NO_SECRETS, secretValues, type SecretValues } from "@/lib/redaction";
import { cacheEpoch, piece } from "@/lib/runtime";
import * as q from "./queries";
import type { ServerSecretRow } from "./queries";

// Every recorded call asks: keep each server's values until a server or credential write anywhere
// empties the server cache (its epoch moves); the expiry bounds a missed announcement.
const SECRETS_CACHE_MS = 60_000;
const cache = piece("serverSecrets", () => new Map<string, { secrets: SecretValues; epoch: number; until: number }>());

/**
 * A server's stored secret values, to mask wherever they appear in what is recorded or shown:
 * its header values, its pre-registered client secret, and the OAuth tokens and client secrets
 * the console holds for it. `row` saves a read when the caller has the server row already.
 */
export async function serverSecretValues({ workspaceId, serverId, row }: { workspaceId: string; serverId: string; row?: ServerSecretRow }): Promise<SecretValues> {
  const epoch = cacheEpoch("serverCache");
  const hit = cache.get(serverId);
  if (hit && hit.epoch === epoch && hit.until > Date.now()) return hit.secrets;
  const server = row ?? (await q.findServerWithSecrets({ workspaceId, id: serverId }));
  if (!server) return NO_SECRETS;
  const secrets = secretValues([
    ...Object.values(open<Record<string, string>>(server.headersSecret) ?? {}),
    open<string>(server.oauthClientSecret),
    ...(await storedOAuthSecrets({ workspaceId, serverId })),
  ]);
  if (cache.size > 10_000) cache.clear();
  if (epoch === cacheEpoch("serverCache")) cache.set(serverId, { secrets, epoch, until: Date.now() + SECRETS_CACHE_MS });
  return secrets;
}

function open<T>(sealed: string | null): T | null {
  if (!sealed) return null;
  try {
    return decryptJson<T>(sealed);
  } catch {
    return null;
  }
}
