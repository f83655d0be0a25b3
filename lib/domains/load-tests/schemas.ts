import { z } from "zod";

const Id = z.string().trim().min(1).max(200);

/**
 * POST /api/v1/load-tests: the shape (400 when wrong). Its bounds (users, duration, count) are the
 * service's, answered 422 naming the limit (./server.ts `checkBounds`).
 */
export const CreateLoadTestSchema = z
  .object({
    collectionId: Id.optional(),
    call: z.object({ serverId: Id, tool: z.string().min(1).max(500), arguments: z.record(z.string(), z.unknown()).default({}) }).strict().optional(),
    users: z.number().int(),
    durationSeconds: z.number().finite().optional(),
    count: z.number().int().optional(),
    rampUpSeconds: z.number().finite().default(0),
    thinkMs: z.number().finite().default(0),
  })
  .strict();
export type CreateLoadTest = z.infer<typeof CreateLoadTestSchema>;

export const ListLoadTestsQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
