import { z } from "zod";
import { SHARE_MAX_DAYS } from "./index";

export const CreateShareSchema = z
  .object({
    /** When the link stops working (must be in the future); absent with no expiresInDays: never. */
    expiresAt: z.iso.datetime({ offset: true }).optional(),
    expiresInDays: z.number().int().min(1).max(SHARE_MAX_DAYS).optional(),
  })
  .refine((body) => !(body.expiresAt && body.expiresInDays), { message: "Give expiresAt or expiresInDays, not both", path: ["expiresAt"] });
export type CreateShare = z.infer<typeof CreateShareSchema>;

export const ListSharesQuerySchema = z.object({
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListSharesQuery = z.infer<typeof ListSharesQuerySchema>;
