import "server-only";
import { hashToken } from "@/lib/crypto";
import { SwitchboardError } from "@/lib/errors";
import { auth } from "./better-auth";
import type { Principal } from "./index";
import * as q from "./queries";

export { auth, createUserWithPassword } from "./better-auth";

const WORKSPACE_HEADER = "x-workspace-id";
const TOKEN_CACHE_MS = 10_000;
const lastUsedWrites = new Map<string, number>();
// Verified tokens by hash: saves two queries per scripted call. Revocation clears it.
const tokenCache = ((globalThis as { switchboardTokens?: Map<string, { principal: Principal; until: number }> }).switchboardTokens ??= new Map());

/** Forget every cached token verdict (after a revocation or a membership change). */
export function clearTokenCache(): void {
  tokenCache.clear();
}

/**
 * Who is calling and in which workspace: a bearer API token (bound to one workspace) or a
 * better-auth session cookie (workspace from the `x-workspace-id` header, else the first membership).
 */
export async function authenticate(request: Request): Promise<Principal> {
  const header = request.headers.get("authorization");
  if (header?.toLowerCase().startsWith("bearer ")) return fromToken(header.slice(7).trim());
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session) throw new SwitchboardError("unauthorized", "Sign in or send an API token (Authorization: Bearer …)");
  // EventSource cannot send headers, so event streams name the workspace in the query.
  const wanted = request.headers.get(WORKSPACE_HEADER) ?? new URL(request.url).searchParams.get("workspace");
  const member = await q.findMembership({ userId: session.user.id, workspaceId: wanted });
  if (!member) throw new SwitchboardError(wanted ? "not_found" : "forbidden", wanted ? "Workspace not found" : "You are not a member of any workspace");
  return { userId: session.user.id, userName: session.user.name, workspaceId: member.workspaceId, role: member.role, via: "session" };
}

async function fromToken(token: string): Promise<Principal> {
  const tokenHash = hashToken(token);
  const cached = tokenCache.get(tokenHash);
  if (cached && cached.until > Date.now()) return cached.principal;
  const principal = await verifyToken(tokenHash);
  if (tokenCache.size > 10_000) tokenCache.clear();
  tokenCache.set(tokenHash, { principal, until: Date.now() + TOKEN_CACHE_MS });
  return principal;
}

async function verifyToken(tokenHash: string): Promise<Principal> {
  const row = await q.findTokenWithMember({ tokenHash });
  if (!row || row.revokedAt) throw new SwitchboardError("unauthorized", "Invalid or revoked API token");
  const { member } = row;
  if (!member) throw new SwitchboardError("unauthorized", "The token's owner is no longer a member of its workspace");
  touchToken(row.id);
  return { userId: row.userId, userName: row.user.name, workspaceId: row.workspaceId, role: member.role, via: "token", tokenId: row.id };
}

// lastUsedAt is informational: write it at most once a minute per token, off the request path.
function touchToken(id: string) {
  const now = Date.now();
  if ((lastUsedWrites.get(id) ?? 0) > now - 60_000) return;
  lastUsedWrites.set(id, now);
  void q.touchToken({ id }).catch(() => undefined);
}
