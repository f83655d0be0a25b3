import { describe, expect, it } from "vitest";
import { csvField, csvRow } from "@/lib/domains/calls";
import { parseCsv } from "../support/csv";

describe("CSV export fields", () => {
  it("quotes per RFC 4180 only when needed", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rlf")).toBe('"cr\rlf"');
    expect(csvField(null)).toBe("");
    expect(csvField(12.5)).toBe("12.5");
  });

  it("defuses text a spreadsheet would run as a formula", () => {
    expect(csvField("=HYPERLINK(\"http://x\")")).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("-2")).toBe("'-2");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField(-2)).toBe("-2");
  });

  it("round-trips hostile records through a strict reader", () => {
    const records = [
      ["id", "arguments", "error"],
      ["1", JSON.stringify({ q: 'a "quoted", comma\r\nline', empty: "" }), ""],
      ["2", "", "“unicode” ✓ \u2028"],
      ["", "", ""],
    ];
    const text = records.map((r) => csvRow(r)).join("");
    expect(text.endsWith("\r\n")).toBe(true);
    expect(parseCsv(text)).toEqual(records);
  });
});
