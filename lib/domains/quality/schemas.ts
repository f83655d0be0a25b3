import { z } from "zod";

/** GET /api/v1/servers/:id/lint: the snapshot to lint (default: the latest). */
export const LintQuerySchema = z.object({ snapshotId: z.string().min(1).max(100).optional() });
