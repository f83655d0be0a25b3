import { describe, expect, it } from "vitest";
import { ListCallsQuerySchema } from "@/lib/domains/calls/schemas";
import { normaliseTag } from "@/lib/domains/reviews";
import { CreateViewSchema, NoteBodySchema, SetTagsSchema, VIEW_FILTER_KEYS } from "@/lib/domains/reviews/schemas";

describe("tags", () => {
  it("are trimmed and lower-cased, and keep only letters, digits and - _ . :", () => {
    expect(normaliseTag("  Regression ")).toBe("regression");
    expect(normaliseTag("team:Payments_v2.1-rc")).toBe("team:payments_v2.1-rc");
    expect(normaliseTag("Größe")).toBe("größe");
    expect(normaliseTag("two words")).toBeNull();
    expect(normaliseTag("#hash")).toBeNull();
    expect(normaliseTag("   ")).toBeNull();
    expect(normaliseTag("x".repeat(40))).toBe("x".repeat(40));
    expect(normaliseTag("x".repeat(41))).toBeNull();
  });

  it("collapse duplicates after normalising and stop at 20 per call", () => {
    expect(SetTagsSchema.parse({ tags: ["B", "a", " b ", "A"] }).tags).toEqual(["a", "b"]);
    const twenty = Array.from({ length: 20 }, (_, i) => `t${i}`);
    expect(SetTagsSchema.safeParse({ tags: [...twenty, "T0"] }).success).toBe(true);
    expect(SetTagsSchema.safeParse({ tags: [...twenty, "t20"] }).success).toBe(false);
    expect(SetTagsSchema.safeParse({ tags: ["ok", "not ok"] }).success).toBe(false);
  });
});

describe("notes", () => {
  it("hold 1 to 10,000 characters after trimming", () => {
    expect(NoteBodySchema.parse({ body: "  looks slow  " }).body).toBe("looks slow");
    expect(NoteBodySchema.safeParse({ body: "   " }).success).toBe(false);
    expect(NoteBodySchema.safeParse({ body: "x".repeat(10_000) }).success).toBe(true);
    expect(NoteBodySchema.safeParse({ body: "x".repeat(10_001) }).success).toBe(false);
  });
});

describe("saved view filters", () => {
  it("are exactly the history query parameters without paging", () => {
    expect(VIEW_FILTER_KEYS).toEqual(expect.arrayContaining(["serverId", "status", "q", "tag", "starred"]));
    expect(VIEW_FILTER_KEYS).not.toContain("cursor");
    expect(VIEW_FILTER_KEYS).not.toContain("limit");
  });

  it("accept what GET /api/v1/calls accepts and refuse the rest", () => {
    const ok = CreateViewSchema.parse({ name: " Tuesday ", filters: { tag: "regression", starred: "1", status: "error", q: "" } });
    expect(ok).toEqual({ name: "Tuesday", filters: { tag: "regression", starred: "1", status: "error" } });
    expect(ListCallsQuerySchema.safeParse(ok.filters).success).toBe(true);
    expect(CreateViewSchema.safeParse({ name: "x", filters: { cursor: "abc" } }).success).toBe(false);
    expect(CreateViewSchema.safeParse({ name: "x", filters: { colour: "red" } }).success).toBe(false);
    expect(CreateViewSchema.safeParse({ name: "x", filters: { status: "sideways" } }).success).toBe(false);
    expect(CreateViewSchema.safeParse({ name: "x", filters: { from: "yesterday" } }).success).toBe(false);
    expect(CreateViewSchema.safeParse({ name: "", filters: {} }).success).toBe(false);
  });
});
