import type { Role } from "@/lib/core/access";
export type { CreateInvitation, AcceptInvitation } from "./schemas";

/** How long an invitation link stays valid. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface MemberDto {
  /** The user's id (the `:userId` of the member routes). */
  id: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: string;
  lastActiveAt: string | null;
}

export interface InvitationDto {
  id: string;
  email: string;
  role: Role;
  /** The single-use link to open (or send) to accept. */
  url: string;
  expiresAt: string;
  createdAt: string;
  invitedBy: { id: string; name: string | null };
}

/** The answer of POST /api/v1/invitations: the invitation, and whether it was also mailed. */
export interface CreatedInvitationDto extends InvitationDto {
  emailed: boolean;
  /** Why it was not mailed (mail not configured, or the mail server's refusal). */
  emailError?: string;
}

export type InvitationState = "valid" | "expired" | "revoked" | "used";

/** What the invitation page shows before anyone signs in (POST /api/v1/invitations/preview). */
export interface InvitationPreviewDto {
  workspace: { name: string };
  inviter: { name: string | null };
  role: Role;
  email: string;
  state: InvitationState;
  expiresAt: string;
  /** An account with the invited address exists: sign in, then join. */
  accountExists: boolean;
  /** The browser's signed-in user, if any, and whether they already belong to the workspace. */
  session: { name: string; email: string; alreadyMember: boolean } | null;
}

export interface AcceptedInvitationDto {
  user: { id: string; name: string; email: string };
  workspace: { id: string; name: string; slug: string };
  role: Role;
}

export const memberKeys = {
  all: () => ["members"] as const,
  invitations: () => ["invitations"] as const,
  preview: (token: string) => ["invitation-preview", token] as const,
};
