import { describe, expect, it } from "vitest";
import { CreateServerSchema, UpdateServerSchema } from "@/lib/domains/servers/schemas";

describe("a server's hard maximum (maxTotalTimeoutMs)", () => {
  const base = { name: "everything", url: "http://127.0.0.1:3001/mcp" };

  it("is optional on create and kept when given", () => {
    expect(CreateServerSchema.parse(base).maxTotalTimeoutMs).toBeUndefined();
    expect(CreateServerSchema.parse({ ...base, maxTotalTimeoutMs: 120_000 }).maxTotalTimeoutMs).toBe(120_000);
  });

  it("is cleared with null on update, and must be a whole number of at least 1000 ms", () => {
    expect(UpdateServerSchema.parse({ maxTotalTimeoutMs: null }).maxTotalTimeoutMs).toBeNull();
    expect(UpdateServerSchema.parse({}).maxTotalTimeoutMs).toBeUndefined();
    expect(UpdateServerSchema.safeParse({ maxTotalTimeoutMs: 999 }).success).toBe(false);
    expect(UpdateServerSchema.safeParse({ maxTotalTimeoutMs: 1500.5 }).success).toBe(false);
    expect(CreateServerSchema.safeParse({ ...base, maxTotalTimeoutMs: null }).success).toBe(false);
  });
});
