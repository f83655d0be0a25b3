import { describe, expect, it } from "vitest";
import { languageFor } from "@/components/calls/code-view";
import { asFlatRows, tableCandidates } from "@/components/calls/json-table";
import { imageSource, isBase64, isRasterDataUrl } from "@/components/calls/safe-content";
import { pointerAncestors, searchJson, toJsonPath, toPointer } from "@/components/ui/json-paths";

const PNG64 = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex").toString("base64");
const SVG64 = Buffer.from("<svg><script>alert(1)</script></svg>").toString("base64");

describe("content guards", () => {
  it("types images by their bytes and explains refusals", () => {
    expect(imageSource(PNG64, "image/png")).toEqual({ src: `data:image/png;base64,${PNG64}` });
    expect(imageSource(PNG64, "image/jpeg")).toMatchObject({ src: `data:image/png;base64,${PNG64}`, notice: expect.stringContaining("Declared as") });
    expect(imageSource(SVG64, "image/svg+xml")).toMatchObject({ src: null, notice: expect.stringContaining("SVG") });
    expect(imageSource(SVG64, "image/png").src).toBeNull();
    expect(imageSource("%%% nope", "image/png")).toMatchObject({ src: null, notice: expect.stringContaining("base64") });
    expect(imageSource(42, "image/png").src).toBeNull();
  });

  it("checks base64 and Markdown image URLs", () => {
    expect(isBase64("aGVsbG8=")).toBe(true);
    expect(isBase64("aGVsbG8")).toBe(false);
    expect(isBase64("not*base64")).toBe(false);
    expect(isRasterDataUrl(`data:image/png;base64,${PNG64}`)).toBe(true);
    expect(isRasterDataUrl(`data:image/svg+xml;base64,${SVG64}`)).toBe(false);
    expect(isRasterDataUrl("https://example.com/x.png")).toBe(false);
  });

  it("picks a highlighting language by mimeType", () => {
    expect(languageFor("application/json")).toBe("json");
    expect(languageFor("text/javascript; charset=utf-8")).toBe("javascript");
    expect(languageFor("text/x-python")).toBe("python");
    expect(languageFor("text/html")).toBe("markup");
    expect(languageFor("text/plain")).toBeNull();
    expect(languageFor(undefined)).toBeNull();
  });
});

describe("structured output helpers", () => {
  it("formats paths", () => {
    expect(toJsonPath(["rows", 1, "temp"])).toBe("$.rows[1].temp");
    expect(toJsonPath(["a b", 0])).toBe('$["a b"][0]');
    expect(toPointer(["a/b", "c~d", 2])).toBe("/a~1b/c~0d/2");
    expect(pointerAncestors("/rows/1/temp")).toEqual(["", "/rows", "/rows/1", "/rows/1/temp"]);
  });

  it("searches keys and values and opens the way to matches", () => {
    const { matches, open } = searchJson({ rows: [{ city: "Oslo" }, { city: "Lima" }] }, "lima");
    expect([...matches]).toEqual(["/rows/1/city"]);
    expect([...open]).toEqual(["", "/rows", "/rows/1"]);
    expect(searchJson({ a: 1 }, "").matches.size).toBe(0);
  });

  it("caps search matches on huge values", () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: i, city: `City ${i}` }));
    const started = performance.now();
    expect(searchJson(rows, "city").matches.size).toBe(1000);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("finds arrays of flat objects for the table view", () => {
    expect(asFlatRows([{ a: 1 }, { a: 2, b: "x" }])).toHaveLength(2);
    expect(asFlatRows([{ a: { nested: 1 } }])).toBeNull();
    expect(asFlatRows([1, 2])).toBeNull();
    expect(tableCandidates({ rows: [{ a: 1 }], meta: { x: 1 } }).map((t) => t.key)).toEqual(["rows"]);
    expect(tableCandidates([{ a: 1 }])[0]!.key).toBe("(root)");
  });
});
