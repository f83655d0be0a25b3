import "server-only";
import type { RequestHead } from "@/lib/core/access";
import { roleAtLeast, type Role } from "@/lib/core/access";
import { audit, auditAs } from "@/lib/core/audit/server";
import { consoleOrigin } from "@/lib/identity/auth";
import type { Principal } from "@/lib/core/access";
import { auth, clientInfo, createUserWithPassword } from "@/lib/identity/auth/server";
import { decryptJson, encryptJson, hashToken, newToken } from "@/lib/core/crypto";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { sendMail } from "@/lib/core/mail/server";
import {
  INVITATION_TTL_MS,
  type AcceptInvitation,
  type AcceptedInvitationDto,
  type CreateInvitation,
  type CreatedInvitationDto,
  type InvitationDto,
  type InvitationPreviewDto,
  type InvitationState,
} from "./index";
import { invitationMail } from "./invitation-mail";
import * as q from "./queries";

type InvitationRow = Awaited<ReturnType<typeof q.listPendingInvitations>>[number];
type FoundInvitation = NonNullable<Awaited<ReturnType<typeof q.findInvitationByHash>>>;

function inviteUrl(origin: string, row: { tokenSecret: string }): string {
  return `${origin}/invite/${decryptJson<string>(row.tokenSecret)}`;
}

function toDto(row: InvitationRow, origin: string, names: Map<string, string>): InvitationDto {
  return {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    url: inviteUrl(origin, row),
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    invitedBy: { id: row.invitedBy, name: names.get(row.invitedBy) ?? null },
  };
}

/** Owners and admins invite; only an owner may invite an owner. Mail is best effort. */
export async function createInvitation(principal: Principal, input: CreateInvitation, request: RequestHead): Promise<CreatedInvitationDto> {
  if (input.role === "owner" && !roleAtLeast(principal.role, "owner")) {
    throw new SwitchboardError("forbidden", "Only an owner can invite an owner", { requiredRole: "owner" });
  }
  const existing = await q.findUserByEmail({ email: input.email });
  if (existing && (await q.findMember({ workspaceId: principal.workspaceId, userId: existing.id }))) {
    throw new SwitchboardError("conflict", `${input.email} is already a member of this workspace`);
  }
  const token = newToken("sbi");
  const { invitation, replaced } = await q.createInvitation({
    workspaceId: principal.workspaceId,
    email: input.email,
    role: input.role,
    tokenHash: hashToken(token),
    tokenSecret: encryptJson(token),
    invitedBy: principal.userId,
    expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
  });
  const dto = toDto(invitation, consoleOrigin(request), new Map([[principal.userId, principal.userName]]));
  const workspace = await q.findWorkspace({ id: principal.workspaceId });
  const mail = await sendMail({ to: input.email, ...invitationMail({ url: dto.url, workspaceName: workspace?.name ?? "a workspace", inviterName: principal.userName, role: input.role }) });
  await audit(principal, {
    action: "invitation.created",
    target: { type: "invitation", id: invitation.id, name: input.email },
    details: { role: input.role, emailed: mail.sent, ...(replaced ? { replaced } : {}) },
  });
  return { ...dto, emailed: mail.sent, ...(mail.sent ? {} : { emailError: mail.reason }) };
}

/** Pending invitations (not used, revoked or expired), newest first, with their links. */
export async function listInvitations(principal: Principal, request: RequestHead): Promise<InvitationDto[]> {
  const rows = await q.listPendingInvitations({ workspaceId: principal.workspaceId });
  const users = await q.usersNamed({ ids: [...new Set(rows.map((r) => r.invitedBy))] });
  const names = new Map(users.map((u) => [u.id, u.name]));
  const origin = consoleOrigin(request);
  return rows.map((row) => toDto(row, origin, names));
}

export async function revokeInvitation(principal: Principal, id: string): Promise<void> {
  const revoked = await q.revokeInvitation({ workspaceId: principal.workspaceId, id });
  if (!revoked) throw notFound("Pending invitation");
  await audit(principal, { action: "invitation.revoked", target: { type: "invitation", id, name: revoked.email }, details: { role: revoked.role } });
}

function stateOf(row: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date }): InvitationState {
  if (row.acceptedAt) return "used";
  if (row.revokedAt) return "revoked";
  return row.expiresAt.getTime() <= Date.now() ? "expired" : "valid";
}

const GONE: Record<Exclude<InvitationState, "valid">, string> = {
  expired: "This invitation has expired; ask for a new one",
  revoked: "This invitation was revoked; ask for a new one",
  used: "This invitation has already been used",
};

async function findByToken(token: string): Promise<FoundInvitation> {
  const row = await q.findInvitationByHash({ tokenHash: hashToken(token) });
  if (!row) throw notFound("Invitation");
  return row;
}

/** What an invitation link offers, for the page that opens it (no account needed). */
export async function previewInvitation(token: string, request: RequestHead): Promise<InvitationPreviewDto> {
  const row = await findByToken(token);
  const [inviter, account, session] = await Promise.all([
    q.findUserName({ id: row.invitedBy }),
    q.findUserByEmail({ email: row.email }),
    auth.api.getSession({ headers: request.headers }),
  ]);
  const alreadyMember = session ? Boolean(await q.findMember({ workspaceId: row.workspaceId, userId: session.user.id })) : false;
  return {
    workspace: { name: row.workspace.name },
    inviter: { name: inviter?.name ?? null },
    role: row.role as Role,
    email: row.email,
    state: stateOf(row),
    expiresAt: row.expiresAt.toISOString(),
    accountExists: Boolean(account),
    session: session ? { name: session.user.name, email: session.user.email, alreadyMember } : null,
  };
}

/**
 * Spends an invitation: a new account (name and password; the answer signs the person in with
 * its Set-Cookie headers) or the signed-in user, whose address must be the invited one.
 */
export async function acceptInvitation(input: AcceptInvitation, request: RequestHead): Promise<{ result: AcceptedInvitationDto; setCookies: string[] }> {
  const row = await findByToken(input.token);
  const state = stateOf(row);
  if (state !== "valid") throw new SwitchboardError("gone", GONE[state], { state });
  const role = row.role as Role;
  let user: { id: string; name: string; email: string };
  let setCookies: string[] = [];
  const newAccount = input.name !== undefined && input.password !== undefined;
  if (input.name !== undefined && input.password !== undefined) {
    const created = await createAccount(row.email, input.name, input.password);
    user = created;
    await spend(row, user.id, async () => void (await q.deleteUser({ id: created.id })));
    setCookies = await signIn(row.email, input.password, request);
  } else {
    const session = await auth.api.getSession({ headers: request.headers });
    if (!session) throw new SwitchboardError("unauthorized", "Sign in first, or give a name and password to create an account");
    if (session.user.email.toLowerCase() !== row.email) {
      throw new SwitchboardError("forbidden", `This invitation is for ${row.email}; you are signed in as ${session.user.email}`);
    }
    user = { id: session.user.id, name: session.user.name, email: session.user.email };
    await spend(row, user.id);
  }
  await auditAs(
    { workspaceId: row.workspaceId, type: "user", id: user.id, name: user.name, client: clientInfo(request) },
    { action: "invitation.accepted", target: { type: "invitation", id: row.id, name: row.email }, details: { role, newAccount, invitedBy: row.invitedBy } },
  );
  return { result: { user, workspace: row.workspace, role }, setCookies };
}

async function createAccount(email: string, name: string, password: string) {
  if (await q.findUserByEmail({ email })) {
    throw new SwitchboardError("conflict", `An account for ${email} already exists; sign in, then open the invitation again to join`, { accountExists: true });
  }
  try {
    const user = await createUserWithPassword({ name, email, password });
    return { id: user.id, name: user.name, email: user.email };
  } catch (err) {
    if (err instanceof RangeError) throw new SwitchboardError("bad_request", err.message);
    // Lost a race with another acceptance creating the same address.
    if (await q.findUserByEmail({ email })) throw new SwitchboardError("conflict", `An account for ${email} already exists; sign in first`, { accountExists: true });
    throw err;
  }
}

async function spend(row: FoundInvitation, userId: string, undo?: () => Promise<void>): Promise<void> {
  const outcome = await q.acceptInvitation({ id: row.id, workspaceId: row.workspaceId, userId, role: row.role });
  if (outcome === "done") return;
  await undo?.();
  if (outcome === "member") throw new SwitchboardError("conflict", `You are already a member of ${row.workspace.name}`, { alreadyMember: true });
  throw new SwitchboardError("gone", "This invitation was used, revoked or expired meanwhile", { state: "used" });
}

// The account and membership exist whatever happens here; without cookies the page sends the person to sign in.
async function signIn(email: string, password: string, request: RequestHead): Promise<string[]> {
  try {
    const signedIn = await auth.api.signInEmail({ body: { email, password }, headers: request.headers, returnHeaders: true });
    return signedIn.headers.getSetCookie();
  } catch (err) {
    console.error("[invitations] account created, but signing in failed", err);
    return [];
  }
}
