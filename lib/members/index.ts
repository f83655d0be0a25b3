import { z } from "zod";
import { RoleSchema, type Role } from "@/lib/access";

/** How long an invitation link stays valid. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const CreateInvitationSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email().max(200)),
  role: RoleSchema,
});
export type CreateInvitation = z.infer<typeof CreateInvitationSchema>;

export const InvitationTokenSchema = z.object({ token: z.string().trim().min(10).max(200) });

/** `{ token }` with a signed-in session (existing user), or `{ token, name, password }` (new account). */
export const AcceptInvitationSchema = InvitationTokenSchema.extend({
  name: z.string().trim().min(1).max(100).optional(),
  password: z.string().min(8).max(128).optional(),
}).refine((v) => (v.name === undefined) === (v.password === undefined), { message: "Give both name and password for a new account, or neither to join as the signed-in user" });
export type AcceptInvitation = z.infer<typeof AcceptInvitationSchema>;

export const UpdateMemberSchema = z.object({ role: RoleSchema });
export const TransferOwnershipSchema = z.object({ userId: z.string().min(1).max(100) });

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
