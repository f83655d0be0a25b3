import "server-only";
import type { CallbackOutcome } from "./server";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A plain page for a callback that did not end in a sign-in: what happened, and a way back. */
export function callbackPage(outcome: Extract<CallbackOutcome, { ok: false }>): Response {
  const back = outcome.serverId ? `/servers/${encodeURIComponent(outcome.serverId)}` : "/servers";
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(outcome.title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}a{color:#2563eb}</style></head>
<body><h1>${escape(outcome.title)}</h1><p data-testid="oauth-error">${escape(outcome.message)}</p><p><a href="${escape(back)}">Back to the console</a></p></body></html>`;
  return new Response(html, { status: 400, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" } });
}
