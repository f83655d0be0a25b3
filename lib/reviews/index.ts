import { z } from "zod";
import { ListCallsQuerySchema } from "@/lib/calls";

export const NOTE_MAX_LENGTH = 10_000;
export const TAG_MAX_LENGTH = 40;
export const TAGS_PER_CALL = 20;

/** A note's text: markdown-ish plain text, rendered without raw HTML. */
export const NoteBodySchema = z.object({ body: z.string().trim().min(1, "A note needs some text").max(NOTE_MAX_LENGTH) });
export type NoteBody = z.infer<typeof NoteBodySchema>;

const TAG_PATTERN = /^[\p{L}\p{N}_.:-]+$/u;

/** "  Regression " → "regression"; letters, digits and `-_.:` only, 1–40 characters. */
export const TagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "A tag cannot be empty")
  .max(TAG_MAX_LENGTH, `A tag has at most ${TAG_MAX_LENGTH} characters`)
  .regex(TAG_PATTERN, "A tag has only letters, digits and - _ . :");

/** Normalises a tag the way the API does, or null when it is not a valid tag. */
export function normaliseTag(input: string): string | null {
  const parsed = TagSchema.safeParse(input);
  return parsed.success ? parsed.data : null;
}

/** PUT /api/v1/calls/:id/tags – the call's whole tag set (duplicates after normalising collapse). */
export const SetTagsSchema = z.object({
  tags: z
    .array(TagSchema)
    .max(100)
    .transform((tags) => [...new Set(tags)].sort())
    .refine((tags) => tags.length <= TAGS_PER_CALL, `A call has at most ${TAGS_PER_CALL} tags`),
});
export type SetTags = z.infer<typeof SetTagsSchema>;

/** The history query parameters a saved view may hold (all of GET /api/v1/calls but paging). */
export const VIEW_FILTER_KEYS = Object.keys(ListCallsQuerySchema.shape).filter((k) => k !== "cursor" && k !== "limit");

/** History filters as URL query values; each must be one GET /api/v1/calls accepts. */
export const ViewFiltersSchema = z
  .record(z.string(), z.string().max(500))
  .transform((filters) => Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== "")))
  .superRefine((filters, ctx) => {
    for (const key of Object.keys(filters)) {
      if (!VIEW_FILTER_KEYS.includes(key)) ctx.addIssue({ code: "custom", path: [key], message: `"${key}" is not a history filter` });
    }
    const parsed = ListCallsQuerySchema.safeParse(filters);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  });
export type ViewFilters = Record<string, string>;

export const CreateViewSchema = z.object({
  name: z.string().trim().min(1, "A view needs a name").max(100),
  filters: ViewFiltersSchema,
});
export type CreateView = z.infer<typeof CreateViewSchema>;

export interface NoteDto {
  id: string;
  callId: string;
  body: string;
  author: { id: string | null; name: string | null };
  createdAt: string;
  updatedAt: string;
  /** Whether the text changed after it was first written. */
  edited: boolean;
}

export interface TagCount {
  tag: string;
  count: number;
}

export interface SavedViewDto {
  id: string;
  name: string;
  filters: ViewFilters;
  createdBy: { id: string | null; name: string | null };
  createdAt: string;
}

export type { CallReview } from "@/lib/calls";

export const reviewKeys = {
  notes: (callId: string) => ["notes", callId] as const,
  tags: () => ["tags"] as const,
  views: () => ["views"] as const,
};
