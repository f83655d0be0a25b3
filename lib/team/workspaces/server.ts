import "server-only";
import { assertSetupAllowed, type SetupRequester } from "./setup-claim";
import { audit } from "@/lib/core/audit/server";
import { clearTokenCache, createUserWithPassword } from "@/lib/identity/auth/server";
import { formatTokenScopes, parseTokenScopes, type TokenScopeName } from "@/lib/core/access";
import type { ApiTokenInfo, CreateToken, Setup } from "@/lib/identity/auth";
import type { Principal } from "@/lib/core/access";
import { hashToken, newToken } from "@/lib/core/crypto";
import { SwitchboardError, notFound } from "@/lib/core/errors";
import type { MeDto, Theme, UpdateMe, WorkspaceDto } from "./index";
import { asTheme, forgetPageTheme } from "./page-theme";
import * as q from "./queries";
import { assertMayCreateWorkspace } from "./creation";
import { piece } from "@/lib/core/runtime";

export { setupCodeRequired, setupRequester, type SetupRequester } from "./setup-claim";
export { deleteWorkspace, getWorkspaceSettings, updateWorkspaceSettings } from "./settings";
export { signedInTheme } from "./page-theme";

export async function setupNeeded(): Promise<boolean> {
  return (await q.countUsers()) === 0;
}

const setupLock = () => piece("setupLock", () => ({ running: false }));

/** First run: the owner account, a default workspace and an API token for scripts. */
export async function runSetup(input: Setup, requester: SetupRequester) {
  if (setupLock().running || !(await setupNeeded())) throw new SwitchboardError("conflict", "Set-up is already done; sign in instead");
  assertSetupAllowed(requester, input.setupCode);
  setupLock().running = true;
  try {
    let user;
    try {
      user = await createUserWithPassword(input);
    } catch (err) {
      if (err instanceof RangeError) throw new SwitchboardError("bad_request", err.message);
      throw err;
    }
    const workspace = await q.createWorkspaceWithOwner({ name: input.workspaceName, userId: user.id });
    const { secret } = await issueToken({ workspaceId: workspace.id, userId: user.id, name: "setup" });
    return { user: { id: user.id, name: user.name, email: user.email }, workspace, token: secret };
  } finally {
    setupLock().running = false;
  }
}

export async function getMe(principal: Principal): Promise<MeDto> {
  const [user, memberships] = await Promise.all([q.findUser({ userId: principal.userId }), q.listMemberships({ userId: principal.userId })]);
  const workspaces = memberships.map((m) => ({ ...toWorkspace(m.workspace), role: m.role }));
  const current = workspaces.find((w) => w.id === principal.workspaceId);
  if (!current) throw notFound("Workspace");
  return { user: { ...user, theme: asTheme(user.theme) }, workspace: toWorkspace(current), role: current.role, workspaces };
}

/** Saves the caller's own preferences (the theme), whichever workspace the request is in. */
export async function updateMe(principal: Principal, input: UpdateMe): Promise<{ theme: Theme | null }> {
  const { theme } = await q.setUserTheme({ userId: principal.userId, theme: input.theme });
  forgetPageTheme(principal.userId);
  return { theme: asTheme(theme) };
}

/** POST /workspaces: the caller owns the new workspace, if SWITCHBOARD_WORKSPACE_CREATION lets them create one. */
export async function createWorkspace(principal: Principal, name: string): Promise<WorkspaceDto> {
  await assertMayCreateWorkspace(principal);
  return q.createWorkspaceWithOwner({ name, userId: principal.userId });
}

function toWorkspace(w: WorkspaceDto): WorkspaceDto {
  return { id: w.id, name: w.name, slug: w.slug };
}

export async function listTokens(principal: Principal): Promise<ApiTokenInfo[]> {
  const rows = await q.listTokens({ workspaceId: principal.workspaceId, userId: principal.userId });
  return rows.map(toTokenInfo);
}

/** A read-only token makes none: the gate refuses its writes (lib/core/access `gateRefusal`). */
export async function createToken(principal: Principal, input: CreateToken) {
  // An auditor's token reads, like the auditor: no API writes, no gateway.
  if (principal.memberRole === "auditor" && (input.scopes.length !== 1 || input.scopes[0] !== "read")) {
    throw new SwitchboardError("forbidden", 'An auditor\'s API tokens are read-only: create one with scope "read"', { requiredScope: "read" });
  }
  const scope = formatTokenScopes(input.scopes);
  const issued = await issueToken({ workspaceId: principal.workspaceId, userId: principal.userId, name: input.name, scope });
  await audit(principal, { action: "token.created", target: { type: "token", id: issued.token.id, name: issued.token.name }, details: { scope, prefix: issued.token.prefix } });
  return issued;
}

async function issueToken(input: { workspaceId: string; userId: string; name: string; scope?: string }) {
  const secret = newToken("sb");
  const row = await q.createToken({ ...input, prefix: secret.slice(0, 7), tokenHash: hashToken(secret) });
  return { token: toTokenInfo(row), secret };
}

export async function revokeToken(principal: Principal, id: string): Promise<void> {
  const revoked = await q.revokeToken({ workspaceId: principal.workspaceId, userId: principal.userId, id });
  if (!revoked) throw notFound("Token");
  await clearTokenCache();
  await audit(principal, { action: "token.revoked", target: { type: "token", id, name: revoked.name } });
}

function toTokenInfo(row: { id: string; name: string; prefix: string; scope: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }): ApiTokenInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scope: parseTokenScopes(row.scope).api,
    scopes: row.scope.split(" ") as TokenScopeName[],
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
