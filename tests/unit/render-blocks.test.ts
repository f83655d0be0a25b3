import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ContentBlocks } from "@/components/calls/content-blocks";
// The Markdown renderer itself (components/calls/markdown.tsx loads it lazily, showing the plain text until then).
import Markdown from "@/components/calls/markdown-view";

const XSS = `<script>alert(1)</script><img src=x onerror=alert(1)> [click](javascript:alert(1)) <a href="javascript:alert(1)">a</a>`;
const SVG64 = Buffer.from("<svg onload=alert(1)/>").toString("base64");

const html = (blocks: unknown) => renderToStaticMarkup(createElement(ContentBlocks, { blocks }));

describe("content blocks with odd input (as stored history may hold)", () => {
  it("shows a notice and the raw data for unknown types, non-objects and missing text", () => {
    const out = html([{ type: "hologram", frequency: 42 }, "just a string", { type: "text", text: { nested: true } }]);
    expect(out).toContain("Unknown content type &quot;hologram&quot;");
    expect(out).toContain("not an object");
    expect(out).toContain("missing or not a string");
    expect(out).toContain("frequency");
  });

  it("refuses invalid base64, SVG and non-audio with notices", () => {
    const out = html([
      { type: "image", mimeType: "image/png", data: "%%% not base64" },
      { type: "image", mimeType: "image/svg+xml", data: SVG64 },
      { type: "audio", mimeType: "text/html", data: "PGh0bWw+" },
      { type: "resource", resource: { uri: "x://b", blob: "not*base64" } },
    ]);
    expect(out).toContain("not valid base64");
    expect(out).toContain("SVG images are never displayed");
    expect(out).toContain("Audio not played");
    expect(out).not.toContain("<img");
    expect(out).not.toContain("<audio");
  });

  it("says so when there is no content at all, and copes with content that is not an array", () => {
    expect(html([])).toContain("No content.");
    expect(html({ type: "text", text: "alone" })).toContain("not an array");
  });

  it("keeps hostile text inert, plain and as Markdown", () => {
    for (const out of [html([{ type: "text", text: XSS }]), renderToStaticMarkup(createElement(Markdown, { text: `${XSS}\n\n![i](data:image/svg+xml;base64,${SVG64}) ![t](https://evil.example.com/t.png)` }))]) {
      expect(out).not.toMatch(/<script|<img[^>]*onerror|href="javascript:/i);
      expect(out).not.toContain("evil.example.com/t.png\"");
    }
    const md = renderToStaticMarkup(createElement(Markdown, { text: "[ok](https://example.com) ![i](data:image/svg+xml;base64,AAAA)" }));
    expect(md).toContain('href="https://example.com"');
    expect(md).toContain('rel="noopener noreferrer nofollow"');
    expect(md).toContain("image blocked");
  });
});
