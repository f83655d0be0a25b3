import { z } from "zod";

/** Body of `POST /api/v1/calls/:id/app/tools/call`: a tool on the hosting call's own server. */
export const AppCallToolSchema = z.object({
  name: z.string().min(1).max(500),
  arguments: z.record(z.string(), z.unknown()).default({}),
});
export type AppCallTool = z.infer<typeof AppCallToolSchema>;

/** Body of `POST /api/v1/calls/:id/app/resources/read`. */
export const AppReadResourceSchema = z.object({ uri: z.string().min(1).max(10_000) });
export type AppReadResource = z.infer<typeof AppReadResourceSchema>;
