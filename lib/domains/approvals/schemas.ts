import { z } from "zod";

/** GET /api/v1/approvals?status=pending|decided|all (default all), newest first. */
export const ListApprovalsSchema = z.object({
  status: z.enum(["pending", "decided", "all"]).default("all"),
});
export type ListApprovals = z.infer<typeof ListApprovalsSchema>;

/** POST /api/v1/approvals/:id/approve: a reason is optional. */
export const DecideApprovalSchema = z.object({
  reason: z.string().trim().max(1000).optional(),
});
export type DecideApproval = z.infer<typeof DecideApprovalSchema>;

/** POST /api/v1/approvals/:id/deny: the caller is told why, so a reason is required. */
export const DenyApprovalSchema = z.object({
  reason: z.string({ error: "A denial needs a reason: the caller is told it" }).trim().min(1, "A denial needs a reason: the caller is told it").max(1000),
});
export type DenyApproval = z.infer<typeof DenyApprovalSchema>;
