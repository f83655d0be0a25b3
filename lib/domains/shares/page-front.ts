import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { databaseFault } from "@/lib/core/db/client";
import { SHARE_PAGE_DATA_ID } from "./index";
import { viewShare, type ShareView } from "./views";

// Next's answer to a page load, which a share page's keeps.
const PAGE_HEADERS: [string, string][] = [
  ["content-type", "text/html; charset=utf-8"],
  ["cache-control", "private, no-cache, no-store, max-age=0, must-revalidate"],
  ["vary", "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch"],
  ["x-robots-tag", "noindex"],
];

/**
 * Share pages (`GET /s/<token>`) answered before Next: the page is one prerendered shell for every
 * link (app/s/[token]), served with the link's status (200, 404 unknown, 410 gone) and, in its
 * head, what the public API would answer (SHARE_PAGE_DATA_ID), which the shell shows without a
 * request of its own. Next's per-request render cost a share page 12–30 ms of CPU and tens of
 * awaits under load (docs/benchmarks.md, issue 41); this is one check and one view count.
 * JSON requests (next.config.js rewrites them to the API), Next's own (RSC) requests, HEAD and
 * a build without the shell go on to Next, where proxy.ts sets the same status on the same shell.
 * Returns false for a request it leaves to Next.
 */
export function sharePages({ distDir, headers }: { distDir: string; headers: [string, string][] }) {
  let shell: { head: string; tail: string } | null | undefined;
  const shellHtml = () => {
    if (shell === undefined) {
      const file = path.join(distDir, "server/app/s/_.html");
      const html = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
      const at = html.indexOf("</head>");
      shell = at < 0 ? null : { head: html.slice(0, at), tail: html.slice(at) };
    }
    return shell;
  };

  return function handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? "/";
    if (req.method !== "GET" || !url.startsWith("/s/")) return false;
    const segment = url.slice(3).split("?")[0]!;
    if (!segment || segment.includes("/") || req.headers.rsc !== undefined || /application\/json/.test(req.headers.accept ?? "")) return false;
    const html = shellHtml();
    if (!html) return false;
    void answer(segment, html, res, headers).catch((err) => {
      // The database away (or anything else): the shell without data, whose script asks the public
      // API and says the link could not be loaded, with the status the API would answer.
      const fault = databaseFault(err);
      if (!fault) console.error("[shares] a share page failed", err);
      if (res.headersSent) return void res.end();
      const body = `${html.head}${html.tail}`;
      for (const [name, value] of [...headers, ...PAGE_HEADERS]) res.setHeader(name, value);
      if (fault?.status === 503) res.setHeader("retry-after", "5");
      res.writeHead(fault?.status ?? 500, { "content-length": Buffer.byteLength(body) });
      res.end(body);
    });
    return true;
  };
}

async function answer(segment: string, html: { head: string; tail: string }, res: ServerResponse, headers: [string, string][]): Promise<void> {
  let token: string;
  try {
    token = decodeURIComponent(segment);
  } catch {
    token = "";
  }
  const view = await viewShare(token, { count: true });
  const { status, json } = pageData(view);
  const body = `${html.head}<script id="${SHARE_PAGE_DATA_ID}" type="application/json">${json}</script>${html.tail}`;
  for (const [name, value] of [...headers, ...PAGE_HEADERS]) res.setHeader(name, value);
  res.setHeader("content-length", Buffer.byteLength(body));
  res.writeHead(status);
  res.end(body);
}

/** The SharePageData (./index.ts) of a view, as JSON safe inside a `<script>`. */
function pageData(view: ShareView): { status: number; json: string } {
  if (view.state === "open") return { status: 200, json: `{"status":200,"body":${view.json}}` };
  const [status, code, message] = view.state === "gone" ? [410, "gone", view.reason] : [404, "not_found", "Share link not found"];
  return { status, json: JSON.stringify({ status, body: { error: { code, message } } }).replace(/</g, "\\u003c") };
}
