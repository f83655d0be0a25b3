import { z } from "zod";
import { ListCallsQuerySchema } from "@/lib/domains/calls/schemas";
import { NOTE_MAX_LENGTH, TAGS_PER_CALL, tagProblem } from "./index";

/** "  Regression " → "regression"; letters, digits and `-_.:` only, 1–40 characters. */
const TagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .superRefine((tag, ctx) => {
    const problem = tagProblem(tag);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** A note's text: markdown-ish plain text, rendered without raw HTML. */
export const NoteBodySchema = z.object({ body: z.string().trim().min(1, "A note needs some text").max(NOTE_MAX_LENGTH) });

/** PUT /api/v1/calls/:id/tags – the call's whole tag set (duplicates after normalising collapse). */
export const SetTagsSchema = z.object({
  tags: z
    .array(TagSchema)
    .max(100)
    .transform((tags) => [...new Set(tags)].sort())
    .refine((tags) => tags.length <= TAGS_PER_CALL, `A call has at most ${TAGS_PER_CALL} tags`),
});

/** The history query parameters a saved view may hold (all of GET /api/v1/calls but paging). */
export const VIEW_FILTER_KEYS = Object.keys(ListCallsQuerySchema.shape).filter((k) => k !== "cursor" && k !== "limit");

/** History filters as URL query values; each must be one GET /api/v1/calls accepts. */
const ViewFiltersSchema = z
  .record(z.string(), z.string().max(500))
  .transform((filters) => Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== "")))
  .superRefine((filters, ctx) => {
    for (const key of Object.keys(filters)) {
      if (!VIEW_FILTER_KEYS.includes(key)) ctx.addIssue({ code: "custom", path: [key], message: `"${key}" is not a history filter` });
    }
    const parsed = ListCallsQuerySchema.safeParse(filters);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  });

export const CreateViewSchema = z.object({
  name: z.string().trim().min(1, "A view needs a name").max(100),
  filters: ViewFiltersSchema,
});
export type CreateView = z.infer<typeof CreateViewSchema>;
