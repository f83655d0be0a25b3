import "server-only";
import { decryptJson } from "@/lib/core/crypto";
import type { OAuthTokenRecord } from "@/lib/mcp/server";
import { NO_SECRETS, secretValues, type SecretValues } from "@/lib/core/redaction";
import { sessionHeldSecrets } from "@/lib/core/redaction/server";
import { cacheEpoch, piece } from "@/lib/core/runtime";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import * as q from "./queries";

// Every recorded call asks: keep each server's values until a server or credential write anywhere
// empties the server cache (its epoch moves); the expiry bounds a missed announcement.
const SECRETS_CACHE_MS = 60_000;
type SecretsEntry = { secrets: Promise<SecretValues>; epoch: number; until: number; latest: SecretValues };
const cache = () => piece("serverSecrets", () => new Map<string, SecretsEntry>());

type SealedColumns = Pick<ServerSecretRow, "headersSecret" | "oauthClientSecret" | "idpClientSecret">;

/**
 * A server's stored secret values, to mask wherever they appear in what is recorded or shown:
 * its header values, its pre-registered client secret, and every member's and the shared OAuth
 * tokens with the client secrets they were issued to. `row` saves a read when the caller has the
 * server row already.
 */
export function serverSecretValues({ workspaceId, serverId, row }: { workspaceId: string; serverId: string; row?: SealedColumns }): Promise<SecretValues> {
  const epoch = cacheEpoch("serverCache");
  const hit = cache().get(serverId);
  if (hit && hit.epoch === epoch && hit.until > Date.now()) return hit.secrets;
  // One read for everyone asking meanwhile: log lines and calls keep their order.
  const secrets = load(workspaceId, serverId, row);
  if (cache().size > 10_000) cache().clear();
  const entry: SecretsEntry = { secrets, epoch, until: Date.now() + SECRETS_CACHE_MS, latest: hit?.latest ?? NO_SECRETS };
  cache().set(serverId, entry);
  secrets.then(
    (values) => void (entry.latest = values),
    () => {
      if (cache().get(serverId) === entry) cache().delete(serverId);
    },
  );
  return secrets;
}

/** The values last loaded for a server, without waiting (recorded traffic asks for every message). */
export function knownSecretValues(serverId: string): SecretValues {
  return cache().get(serverId)?.latest ?? NO_SECRETS;
}

async function load(workspaceId: string, serverId: string, row: SealedColumns | undefined): Promise<SecretValues> {
  const server = row ?? (await q.findServerForFlow({ workspaceId, id: serverId }));
  if (!server) return NO_SECRETS;
  return secretValues([
    ...Object.values(open<Record<string, string>>(server.headersSecret) ?? {}),
    open<string>(server.oauthClientSecret),
    open<string>(server.idpClientSecret),
    ...(await tokenSecrets(workspaceId, serverId)),
  ]);
}

async function tokenSecrets(workspaceId: string, serverId: string): Promise<string[]> {
  const credentials = await q.findServerTokenSecrets({ serverId });
  if (!credentials.length) return [];
  const out: string[] = [];
  const issuers = new Set<string>();
  for (const row of credentials) {
    const record = open<OAuthTokenRecord>(row.tokensSecret);
    if (!record) continue;
    const tokens = record.tokens as Record<string, unknown>;
    for (const field of ["access_token", "refresh_token", "id_token"]) if (typeof tokens[field] === "string") out.push(tokens[field]);
    const client = record.client as Record<string, unknown> | undefined;
    if (typeof client?.client_secret === "string") out.push(client.client_secret);
    if (record.issuer) issuers.add(record.issuer);
    if (row.issuer) issuers.add(row.issuer);
  }
  for (const row of await q.findClientSecrets({ workspaceId, issuers: [...issuers] })) {
    const info = open<Record<string, unknown>>(row.infoSecret);
    if (typeof info?.client_secret === "string") out.push(info.client_secret);
  }
  return out;
}

function open<T>(sealed: string | null): T | null {
  if (!sealed) return null;
  try {
    return decryptJson<T>(sealed);
  } catch {
    return null;
  }
}

/**
 * What anything recorded from a session must not show (its traffic, log lines, the requests it
 * sends a person): the server's stored values and those its calls handed in (lib/core/redaction).
 */
export async function sessionSecrets({ workspaceId, serverId, sessionId }: { workspaceId: string; serverId: string; sessionId: string | null }): Promise<SecretValues> {
  const known = await serverSecretValues({ workspaceId, serverId });
  return sessionId ? sessionHeldSecrets({ sessionId, known }) : known;
}
