import { z } from "zod";

/** Body of POST /api/v1/servers/:id/resources/subscribe and /unsubscribe. */
export const ResourceSubscriptionSchema = z.object({ uri: z.string().min(1).max(10_000) });
