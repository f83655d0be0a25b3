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
type SecretsEntry = { secrets: Promise<SecretValues>; epoch: number; until: number; latest: SecretValues };
const cache = piece("serverSecrets", () => new Map<string, SecretsEntry>());

/**
 * A server's stored secret values, to mask wherever they appear in what is recorded or shown:
 * its header values, its pre-registered client secret, and the OAuth tokens and client secrets
 * the console holds for it. `row` saves a read when the caller has the server row already.
 */
export function serverSecretValues({ workspaceId, serverId, row }: { workspaceId: string; serverId: string; row?: ServerSecretRow }): Promise<SecretValues> {
  const epoch = cacheEpoch("serverCache");
  const hit = cache.get(serverId);
  if (hit && hit.epoch === epoch && hit.until > Date.now()) return hit.secrets;
  // One read for everyone asking meanwhile: log lines and calls keep their order.
  const secrets = load(workspaceId, serverId, row);
  if (cache.size > 10_000) cache.clear();
  const entry: SecretsEntry = { secrets, epoch, until: Date.now() + SECRETS_CACHE_MS, latest: hit?.latest ?? NO_SECRETS };
  cache.set(serverId, entry);
  secrets.then(
    (values) => void (entry.latest = values),
    () => {
      if (cache.get(serverId) === entry) cache.delete(serverId);
    },
  );
  return secrets;
}

/** The values last loaded for a server, without waiting (recorded traffic asks for every message). */
export function knownSecretValues(serverId: string): SecretValues {
  return cache.get(serverId)?.latest ?? NO_SECRETS;
}

async function load(workspaceId: string, serverId: string, row: ServerSecretRow | undefined): Promise<SecretValues> {
  const server = row ?? (await q.findServerWithSecrets({ workspaceId, id: serverId }));
  if (!server) return NO_SECRETS;
  return secretValues([
    ...Object.values(open<Record<string, string>>(server.headersSecret) ?? {}),
    open<string>(server.oauthClientSecret),
    ...(await storedOAuthSecrets({ workspaceId, serverId })),
  ]);
}

function open<T>(sealed: string | null): T | null {
  if (!sealed) return null;
  try {
    return decryptJson<T>(sealed);
  } catch {
    return null;
  }
}
