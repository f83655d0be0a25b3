import { z } from "zod";
import { RoleSchema } from "@/lib/core/access/schemas";

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
