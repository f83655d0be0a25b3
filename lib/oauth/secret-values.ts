import "server-only";
import { decryptJson } from "@/lib/crypto";
import type { OAuthTokenRecord } from "@/lib/mcp/server";
import * as q from "./queries";

/**
 * The OAuth secrets the console stores for a server, in clear, for masking (never for display):
 * every member's and the shared credential's access, refresh and ID tokens, and the client
 * secrets of the registrations they were issued to.
 */
export async function storedOAuthSecrets({ workspaceId, serverId }: { workspaceId: string; serverId: string }): Promise<string[]> {
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

function open<T>(sealed: string): T | null {
  try {
    return decryptJson<T>(sealed);
  } catch {
    return null;
  }
}
