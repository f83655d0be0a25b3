import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/lib/identity/auth";

describe("safeNextPath", () => {
  it("keeps same-origin paths with their query and hash", () => {
    expect(safeNextPath("/invite/sbi_abc")).toBe("/invite/sbi_abc");
    expect(safeNextPath("/calls/1?tab=raw#result")).toBe("/calls/1?tab=raw#result");
  });

  it("refuses anything that could leave the origin", () => {
    for (const next of [null, undefined, "", "servers", "https://evil.example", "//evil.example", "/\\evil.example", "/\t/evil.example", "/\n/evil.example", "javascript:alert(1)"]) {
      expect(safeNextPath(next), String(next)).toBeNull();
    }
  });
});
