import { z } from "zod";

// Shapes only (a wrong type is 400, as everywhere). The rules (the name as a path segment, the
// served names, at most 200 tools, servers of this workspace) are checked by ./server.ts, 422 naming the field.

const ToolSchema = z.object({
  serverId: z.string().min(1).max(200),
  tool: z.string().min(1).max(500),
  as: z.string().max(500).optional(),
  description: z.string().max(10_000).optional(),
});

/** POST /api/v1/virtual-servers */
export const CreateVirtualServerSchema = z.object({ name: z.string().max(1000), tools: z.array(ToolSchema).max(10_000).default([]) });
export type CreateVirtualServer = z.infer<typeof CreateVirtualServerSchema>;

/** PATCH /api/v1/virtual-servers/:id – `tools` replaces the whole list. */
export const UpdateVirtualServerSchema = z.object({ name: z.string().max(1000).optional(), tools: z.array(ToolSchema).max(10_000).optional() });
export type UpdateVirtualServer = z.infer<typeof UpdateVirtualServerSchema>;
