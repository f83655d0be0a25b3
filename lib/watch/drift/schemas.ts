import { z } from "zod";
import { AlertTargetsSchema } from "@/lib/watch/alerts/schemas";

/** PUT /api/v1/servers/:id/capabilities/watch: each list given replaces the stored one, omitted keeps it. */
export const WatchSchema = AlertTargetsSchema.strict();
export type WatchInput = z.infer<typeof WatchSchema>;

/** GET /api/v1/servers/:id/capabilities/diff: two snapshot ids (default: the previous and the latest). */
export const DiffQuerySchema = z.object({
  from: z.string().min(1).max(100).optional(),
  to: z.string().min(1).max(100).optional(),
});

/** POST /api/v1/servers/:id/capabilities/approve: the snapshot whose definitions a pinned server serves. */
export const ApproveSnapshotSchema = z.object({ snapshotId: z.string().min(1).max(100) }).strict();
