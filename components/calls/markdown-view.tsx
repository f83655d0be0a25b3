"use client";

import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { isHttpUrl, isRasterDataUrl } from "./safe-content";

/**
 * Only http(s) links and data: raster images survive; every other URL becomes "" and is rendered
 * as plain text or a notice below. Raw HTML in the source stays text (no rehype-raw, ever).
 */
function urlTransform(url: string, key: string): string {
  if (key === "href") return isHttpUrl(url) ? url : "";
  if (key === "src") return isRasterDataUrl(url) ? url : "";
  return "";
}

const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-accent underline" title={href}>
        {children}
      </a>
    ) : (
      <span title="Link removed: only http and https links are followed" className="underline decoration-dotted">
        {children}
      </span>
    ),
  img: ({ src, alt }) =>
    typeof src === "string" && src ? (
      // a data: raster image from the server's Markdown
      <img src={src} alt={alt ?? ""} className="max-h-80 max-w-full rounded border" />
    ) : (
      <span role="note" className="rounded border border-dashed px-1 text-xs text-muted">
        [image blocked{alt ? `: ${alt}` : ""}; only embedded PNG, JPEG, GIF or WebP is shown]
      </span>
    ),
};

/** Markdown from a server, rendered as React elements with GitHub-flavoured tables and lists (loaded lazily through ./markdown). */
export default function MarkdownView({ text }: { text: string }) {
  return (
    <div className="sb-markdown prose-sm max-w-none text-sm leading-6 [&_code]:font-mono [&_code]:text-xs [&_h1]:text-base [&_h1]:font-semibold [&_h2]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_p]:my-1 [&_pre]:overflow-auto [&_pre]:rounded [&_pre]:bg-panel [&_pre]:p-2 [&_table]:border-collapse [&_td]:border [&_td]:px-1 [&_th]:border [&_th]:px-1 [&_ul]:list-disc">
      <ReactMarkdown remarkPlugins={[remarkGfm]} urlTransform={urlTransform} components={components} skipHtml={false}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
