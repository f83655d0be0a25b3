import "server-only";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { hashToken, newToken } from "@/lib/core/crypto";
import { notFound } from "@/lib/core/errors";
import { clearTokenCache } from "@/lib/identity/auth/server";
import type { ScimTokenInfo } from "./index";
import * as q from "./queries";

const info = (row: { id: string; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null }): ScimTokenInfo => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** POST /api/v1/workspace/scim-tokens – its secret is returned this once (only its SHA-256 is kept). */
export async function createScimToken(principal: Principal, input: { name: string }): Promise<{ token: ScimTokenInfo; secret: string }> {
  const secret = newToken("sbscim");
  const row = await q.createScimToken({ workspaceId: principal.workspaceId, userId: principal.userId, name: input.name, prefix: secret.slice(0, 11), tokenHash: hashToken(secret) });
  await audit(principal, { action: "scim.token_created", target: { type: "token", id: row.id, name: row.name }, details: { prefix: row.prefix } });
  return { token: info(row), secret };
}

export async function listScimTokens(principal: Principal): Promise<ScimTokenInfo[]> {
  return (await q.listScimTokens({ workspaceId: principal.workspaceId })).map(info);
}

export async function revokeScimToken(principal: Principal, id: string): Promise<void> {
  if (!(await q.revokeScimToken({ workspaceId: principal.workspaceId, id }))) throw notFound("SCIM token");
  await clearTokenCache();
  await audit(principal, { action: "scim.token_revoked", target: { type: "token", id } });
}
