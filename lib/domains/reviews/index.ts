export type { CreateView } from "./schemas";

export const NOTE_MAX_LENGTH = 10_000;
export const TAG_MAX_LENGTH = 40;
export const TAGS_PER_CALL = 20;

const TAG_PATTERN = /^[\p{L}\p{N}_.:-]+$/u;

/** Why a tag (already trimmed and lower-cased) is not valid, or null when it is. */
export function tagProblem(tag: string): string | null {
  if (!tag) return "A tag cannot be empty";
  if (tag.length > TAG_MAX_LENGTH) return `A tag has at most ${TAG_MAX_LENGTH} characters`;
  if (!TAG_PATTERN.test(tag)) return "A tag has only letters, digits and - _ . :";
  return null;
}

/** Normalises a tag the way the API does ("  Regression " → "regression"), or null when it is not a valid tag. */
export function normaliseTag(input: string): string | null {
  const tag = input.trim().toLowerCase();
  return tagProblem(tag) ? null : tag;
}

export type ViewFilters = Record<string, string>;

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

export type { CallReview } from "@/lib/domains/calls";

export const reviewKeys = {
  notes: (callId: string) => ["notes", callId] as const,
  tags: () => ["tags"] as const,
  views: () => ["views"] as const,
};
