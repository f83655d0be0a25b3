import "server-only";
import type { RequestHead } from "@/lib/core/access";
import { roleAtLeast } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { consoleOrigin } from "@/lib/identity/auth";
import type { Principal } from "@/lib/core/access";
import type { CallMethod, Page } from "@/lib/domains/calls";
import type { RunStatus } from "@/lib/domains/collections";
import { decryptJson, encryptJson, hashToken, newToken } from "@/lib/core/crypto";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { redactionKeys } from "@/lib/core/redaction";
import { serverSecretValues } from "@/lib/domains/server-oauth/server";
import {
  SHARES_DISABLED_MESSAGE,
  type CallSharesDto,
  type CreateShare,
  type ListSharesQuery,
  type PublicShareDto,
  type ShareDto,
  type SharePreviewDto,
} from "./index";
import * as q from "./queries";
import { toSharedCall } from "./shared-call";
import { checkShare, viewShare } from "./views";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Creates a public read-only link to a call; the token is kept hashed (lookup) and sealed (to copy it again). */
export async function createShare(principal: Principal, callId: string, input: CreateShare, request: RequestHead): Promise<ShareDto> {
  const call = await q.findCallForShare({ workspaceId: principal.workspaceId, id: callId });
  if (!call) throw notFound("Call");
  return insertShare(principal, { type: "call", id: callId, name: call.name }, input, request);
}

/** Creates a public read-only link to a collection run, as for a call. */
export async function createRunShare(principal: Principal, runId: string, input: CreateShare, request: RequestHead): Promise<ShareDto> {
  const run = await q.findRunForShare({ workspaceId: principal.workspaceId, id: runId });
  if (!run) throw notFound("Run");
  return insertShare(principal, { type: "run", id: runId, name: run.collectionName }, input, request);
}

/** A share names exactly one call or one run (the table's CHECK says the same). */
async function insertShare(principal: Principal, target: { type: "call" | "run"; id: string; name: string }, input: CreateShare, request: RequestHead): Promise<ShareDto> {
  const settings = await q.findSharingSettings({ workspaceId: principal.workspaceId });
  if (!settings.publicSharesEnabled) throw new SwitchboardError("forbidden", SHARES_DISABLED_MESSAGE);
  const expiresAt = expiryOf(input);
  const token = newToken("sbs");
  const row = await q.insertShare({
    data: {
      workspaceId: principal.workspaceId,
      ...(target.type === "call" ? { callId: target.id } : { runId: target.id }),
      tokenHash: hashToken(token),
      tokenSecret: encryptJson(token),
      createdBy: principal.userId,
      expiresAt,
    },
  });
  await audit(principal, { action: "share.created", target, details: { shareId: row.id, expiresAt: expiresAt?.toISOString() ?? null } });
  return toDto(row, principal, consoleOrigin(request), new Map([[principal.userId, principal.userName]]));
}

function expiryOf(input: CreateShare): Date | null {
  if (input.expiresInDays) return new Date(Date.now() + input.expiresInDays * DAY_MS);
  if (!input.expiresAt) return null;
  const at = new Date(input.expiresAt);
  if (at.getTime() <= Date.now()) throw new SwitchboardError("bad_request", "expiresAt must be in the future");
  return at;
}

/** A call's links that still work, and whether the workspace allows sharing at all. */
export async function listCallShares(principal: Principal, callId: string, request: RequestHead): Promise<CallSharesDto> {
  const call = await q.findCallForShare({ workspaceId: principal.workspaceId, id: callId });
  if (!call) throw notFound("Call");
  const [settings, rows] = await Promise.all([
    q.findSharingSettings({ workspaceId: principal.workspaceId }),
    q.listActiveCallShares({ workspaceId: principal.workspaceId, callId, now: new Date() }),
  ]);
  return { items: await toDtos(rows, principal, request), publicSharesEnabled: settings.publicSharesEnabled };
}

/** Every link of the workspace (active, expired and revoked), newest first. */
export async function listShares(principal: Principal, query: ListSharesQuery, request: RequestHead): Promise<Page<ShareDto>> {
  const page = await q.listShares({ workspaceId: principal.workspaceId, cursor: query.cursor, limit: query.limit });
  return { items: await toDtos(page.items, principal, request), nextCursor: page.nextCursor };
}

/** Revokes a link (its creator, or an admin); its URL answers 410 from now on. Revoking twice is a no-op. */
export async function revokeShare(principal: Principal, id: string): Promise<void> {
  const share = await q.findShare({ workspaceId: principal.workspaceId, id });
  if (!share) throw notFound("Share link");
  if (share.createdBy !== principal.userId && !roleAtLeast(principal.role, "admin")) {
    throw new SwitchboardError("forbidden", "Only the person who created this link, or an admin, can revoke it");
  }
  if (!(await q.revokeShare({ workspaceId: principal.workspaceId, id }))) return;
  const target = share.runId ? { type: "run", id: share.runId, name: share.run?.collectionName ?? "" } : { type: "call", id: share.callId ?? "", name: share.call?.name ?? "" };
  await audit(principal, { action: "share.revoked", target, details: { shareId: id } });
}

/** Exactly what a link to this call would show, with the masked paths, before any link exists. */
export async function previewShare(principal: Principal, callId: string): Promise<SharePreviewDto> {
  const call = await q.findCallForShare({ workspaceId: principal.workspaceId, id: callId });
  if (!call) throw notFound("Call");
  const settings = await q.findSharingSettings({ workspaceId: principal.workspaceId });
  const keys = redactionKeys(settings.redactionKeys);
  const secrets = await serverSecretValues({ workspaceId: call.workspaceId, serverId: call.serverId });
  return { ...toSharedCall(call, keys, secrets), redactionKeys: keys, publicSharesEnabled: settings.publicSharesEnabled };
}

/**
 * Opens a link for anyone who has it: the redacted call or run, built with the workspace's current
 * redaction list (./views.ts). Unknown → 404; revoked, expired or sharing turned off → 410. Counts a view.
 */
export async function openShare(token: string): Promise<PublicShareDto> {
  const view = await viewShare(token, { count: true });
  if (view.state === "unknown") throw notFound("Share link");
  if (view.state === "gone") throw new SwitchboardError("gone", view.reason);
  return view.share;
}

/** Whether a token's page exists, is gone (with why) or never existed; counts nothing. */
export function shareState(token: string): Promise<{ state: "active" } | { state: "gone"; reason: string } | { state: "unknown" }> {
  return checkShare(token);
}

export { sharePages } from "./page-front";

async function toDtos(rows: q.ListedShareRow[], principal: Principal, request: RequestHead): Promise<ShareDto[]> {
  const ids = [...new Set(rows.map((r) => r.createdBy))];
  const names = new Map((await q.findUserNames({ ids })).map((u) => [u.id, u.name]));
  const origin = consoleOrigin(request);
  return rows.map((row) => toDto(row, principal, origin, names));
}

function toDto(row: q.ListedShareRow, principal: Principal, origin: string, names: Map<string, string>): ShareDto {
  const now = Date.now();
  return {
    id: row.id,
    callId: row.callId,
    runId: row.runId,
    url: `${origin}/s/${decryptJson<string>(row.tokenSecret)}`,
    status: row.revokedAt ? "revoked" : row.expiresAt && row.expiresAt.getTime() <= now ? "expired" : "active",
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdBy: { id: row.createdBy, name: names.get(row.createdBy) ?? null },
    viewCount: row.viewCount,
    lastViewedAt: row.lastViewedAt?.toISOString() ?? null,
    call: row.call ? { name: row.call.name, method: row.call.method as CallMethod, serverName: row.call.server?.name ?? null } : null,
    run: row.run ? { collectionName: row.run.collectionName, status: row.run.status as RunStatus, startedAt: row.run.startedAt.toISOString() } : null,
    canRevoke: !row.revokedAt && (row.createdBy === principal.userId || roleAtLeast(principal.role, "admin")),
  };
}
