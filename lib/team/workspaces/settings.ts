import "server-only";
import { audit, auditAs } from "@/lib/core/audit/server";
import type { Principal } from "@/lib/core/access";
import { clearTokenCache } from "@/lib/identity/auth/server";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { assertWorkspaceAllowList, envAllowedNetworks, forgetNetworkPolicy, networkMode } from "@/lib/core/net/server";
import { redactionKeys } from "@/lib/core/redaction";
import { revokeLink } from "@/lib/relay/server";
import { disconnectServer } from "@/lib/domains/sessions/server";
import { getPolicyDefault, setPolicyDefault } from "@/lib/domains/policies/server";
import type { UpdateWorkspace, WorkspaceSettingsDto } from "./index";
import * as q from "./queries";

type SettingsRow = NonNullable<Awaited<ReturnType<typeof q.findWorkspaceSettings>>>;

async function requireSettings(id: string): Promise<SettingsRow> {
  const row = await q.findWorkspaceSettings({ id });
  if (!row) throw notFound("Workspace");
  return row;
}

function effective(row: SettingsRow) {
  return {
    name: row.name,
    retentionDays: row.retentionDays,
    auditRetentionDays: row.auditRetentionDays,
    legalHold: row.legalHold,
    publicSharesEnabled: row.publicSharesEnabled,
    redactionKeys: redactionKeys(row.redactionKeys),
    allowedNetworks: row.allowedNetworks ? (JSON.parse(row.allowedNetworks) as string[]) : [],
  };
}

export async function getWorkspaceSettings(principal: Principal): Promise<WorkspaceSettingsDto> {
  const row = await requireSettings(principal.workspaceId);
  const counts = await q.countWorkspace({ id: row.id });
  return {
    id: row.id,
    slug: row.slug,
    ...effective(row),
    redactionKeysDefault: row.redactionKeys === null,
    network: { mode: networkMode(), envAllowed: envAllowedNetworks() },
    policyDefault: await getPolicyDefault(principal.workspaceId),
    createdAt: row.createdAt.toISOString(),
    counts,
  };
}

/** Same names in another case or spelling count once ("API_KEY" and "api_key"). */
function uniqueKeys(keys: string[]): string[] {
  const seen = new Set<string>();
  return keys.filter((key) => {
    const norm = key.toLowerCase();
    if (seen.has(norm)) return false;
    seen.add(norm);
    return true;
  });
}

/**
 * PATCH /workspace (admin): name, retention, public links, redaction list, allowed networks (each
 * within the operator's list); each change is audited with its old and new value.
 */
export async function updateWorkspaceSettings(principal: Principal, input: UpdateWorkspace): Promise<WorkspaceSettingsDto> {
  if (input.allowedNetworks !== undefined) assertWorkspaceAllowList(input.allowedNetworks);
  const before = await requireSettings(principal.workspaceId);
  const data: Parameters<typeof q.updateWorkspace>[0]["data"] = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.retentionDays !== undefined) data.retentionDays = input.retentionDays;
  if (input.auditRetentionDays !== undefined) data.auditRetentionDays = input.auditRetentionDays;
  if (input.legalHold !== undefined && input.legalHold !== before.legalHold) {
    // A hold is what keeps evidence from the purge: only an owner sets or lifts it.
    if (principal.role !== "owner") throw new SwitchboardError("forbidden", "Only an owner can set or lift the legal hold", { requiredRole: "owner" });
    data.legalHold = input.legalHold;
  }
  if (input.publicSharesEnabled !== undefined) data.publicSharesEnabled = input.publicSharesEnabled;
  if (input.redactionKeys !== undefined) data.redactionKeys = input.redactionKeys === null ? null : JSON.stringify(uniqueKeys(input.redactionKeys));
  if (input.allowedNetworks !== undefined) data.allowedNetworks = input.allowedNetworks.length ? JSON.stringify([...new Set(input.allowedNetworks)]) : null;
  const after = await q.updateWorkspace({ id: principal.workspaceId, data });
  if (input.policyDefault !== undefined) await setPolicyDefault(principal, input.policyDefault);
  forgetNetworkPolicy(principal.workspaceId);

  const [old, now] = [effective(before), effective(after)];
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of Object.keys(now) as (keyof typeof now)[]) {
    if (JSON.stringify(old[key]) !== JSON.stringify(now[key])) changes[key] = { from: old[key], to: now[key] };
  }
  if (Object.keys(changes).length > 0) {
    await audit(principal, { action: "workspace.settings_changed", target: { type: "workspace", id: after.id, name: after.name }, details: { changes } });
  }
  return getWorkspaceSettings(principal);
}

/**
 * DELETE /workspace (owner): everything in it goes. The caller types the name to confirm, and
 * cannot delete their only workspace (an account without one could not create another).
 */
export async function deleteWorkspace(principal: Principal, confirm: string): Promise<void> {
  const row = await requireSettings(principal.workspaceId);
  if (confirm.trim() !== row.name) throw new SwitchboardError("bad_request", `Type the workspace's name ("${row.name}") to confirm`);
  const memberships = await q.listMemberships({ userId: principal.userId });
  if (memberships.length < 2) throw new SwitchboardError("conflict", "This is your only workspace; create another one before deleting it");
  const counts = await q.countWorkspace({ id: row.id });
  const live = await q.workspaceLiveParts({ id: row.id });
  for (const agentId of live.agentIds) revokeLink(agentId);
  await Promise.all(live.serverIds.map((id) => disconnectServer(id, row.id).catch(() => undefined)));
  await q.deleteWorkspace({ id: row.id });
  await clearTokenCache();
  // The workspace's own audit rows go with it; this record is kept outside any workspace.
  await auditAs(
    { workspaceId: null, type: principal.via === "token" ? "token" : "user", id: principal.userId, name: principal.userName, client: principal.client },
    { action: "workspace.deleted", target: { type: "workspace", id: row.id, name: row.name }, details: { slug: row.slug, ...counts } },
  );
}
