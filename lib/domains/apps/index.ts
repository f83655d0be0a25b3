import type { ToolDefinition } from "@/lib/mcp";
export type { AppCallTool, AppReadResource } from "./schemas";

/** The only mimeType a UI resource may have. */
const APP_MIME_TYPE = "text/html;profile=mcp-app";
/** The deprecated flat `_meta` key some servers still use for the UI resource. */
const LEGACY_RESOURCE_URI_KEY = "ui/resourceUri";

/** The domains a UI resource declares in `_meta.ui.csp`; nothing else ever gets in. */
export interface AppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** What the console needs to host a call's app; `app` is null when there is none or it cannot be hosted. */
export interface CallAppInfo {
  app: {
    resourceUri: string;
    /** The tool as the server lists it (for the app's host context). */
    tool: ToolDefinition;
    /** Where the sandbox proxy page is served: never the console's own origin. */
    sandboxUrl: string;
  } | null;
  /** Why a declared app cannot be hosted; null when it can, or when there is no app. */
  reason: string | null;
}

/** A UI resource ready to load: its HTML and the declared CSP domains. */
export interface UiResource {
  html: string;
  csp: AppCsp;
  prefersBorder: boolean | null;
}

export const appKeys = {
  info: (callId: string) => ["apps", "info", callId] as const,
  resource: (callId: string, uri: string) => ["apps", "resource", callId, uri] as const,
};

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The `ui://` resource a tool declares (`_meta.ui.resourceUri`, or the legacy flat key), if any. */
export function toolResourceUri(tool: unknown): string | null {
  const meta = record(record(tool)?._meta);
  const uri = record(meta?.ui)?.resourceUri ?? meta?.[LEGACY_RESOURCE_URI_KEY];
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : null;
}

/** Whether an app may call this tool: `_meta.ui.visibility` includes "app" (the default when absent). */
export function isVisibleToApps(tool: unknown): boolean {
  const visibility = record(record(record(tool)?._meta)?.ui)?.visibility;
  if (!Array.isArray(visibility)) return true;
  return visibility.includes("app");
}

/**
 * Picks the UI resource out of a `resources/read` result, or says why it cannot be loaded.
 * Accepts `text` or base64 `blob` content; the mimeType must be exactly the MCP Apps one.
 */
export function parseUiResource(result: unknown, uri: string): UiResource | { error: string } {
  const contents = record(result)?.contents;
  if (!Array.isArray(contents) || contents.length === 0) return { error: "The UI resource has no contents" };
  const entry = record(contents.find((c) => record(c)?.uri === uri) ?? contents[0]);
  if (!entry) return { error: "The UI resource has no contents" };
  const mimeType = typeof entry.mimeType === "string" ? entry.mimeType.replace(/\s+/g, "").toLowerCase() : "";
  if (mimeType !== APP_MIME_TYPE) {
    return { error: `The UI resource has mimeType ${JSON.stringify(entry.mimeType ?? null)}, not ${APP_MIME_TYPE}` };
  }
  let html: string;
  if (typeof entry.text === "string") html = entry.text;
  else if (typeof entry.blob === "string") {
    try {
      html = new TextDecoder().decode(Uint8Array.from(atob(entry.blob), (ch) => ch.charCodeAt(0)));
    } catch {
      return { error: "The UI resource's blob is not valid base64" };
    }
  } else return { error: "The UI resource has neither text nor blob" };
  const ui = record(record(entry._meta)?.ui);
  const csp = record(ui?.csp) ?? {};
  const domains = (key: keyof AppCsp) => (Array.isArray(csp[key]) ? (csp[key] as unknown[]).filter((d): d is string => typeof d === "string") : undefined);
  return {
    html,
    csp: {
      connectDomains: domains("connectDomains"),
      resourceDomains: domains("resourceDomains"),
      frameDomains: domains("frameDomains"),
      baseUriDomains: domains("baseUriDomains"),
    },
    prefersBorder: typeof ui?.prefersBorder === "boolean" ? ui.prefersBorder : null,
  };
}

// A source expression we pass through: scheme, host (optionally with a leading "*."), optional port.
// Anything else (keywords, paths, quotes, ";", spaces) is dropped, so a server cannot widen the policy.
const SOURCE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?\/?$/i;

/** Keeps only well-formed origins from a declared domain list. */
export function safeSources(domains: unknown): string[] {
  if (!Array.isArray(domains)) return [];
  return [...new Set(domains.filter((d): d is string => typeof d === "string" && SOURCE.test(d)).map((d) => d.replace(/\/$/, "")))].slice(0, 50);
}

/**
 * The Content-Security-Policy for an app, built only from its declared domains. With nothing
 * declared it is the spec's restrictive default (no network, no frames, inline script and style only).
 */
export function buildAppCsp(csp: AppCsp | null | undefined): string {
  const resource = safeSources(csp?.resourceDomains).join(" ");
  const connect = safeSources(csp?.connectDomains).join(" ");
  const frame = safeSources(csp?.frameDomains).join(" ");
  const base = safeSources(csp?.baseUriDomains).join(" ");
  const withRes = (s: string) => (resource ? `${s} ${resource}` : s);
  return [
    "default-src 'none'",
    withRes("script-src 'self' 'unsafe-inline'"),
    withRes("style-src 'self' 'unsafe-inline'"),
    withRes("img-src 'self' data:"),
    withRes("font-src 'self' data:"),
    withRes("media-src 'self' data:"),
    `connect-src ${connect || "'none'"}`,
    `frame-src ${frame || "'none'"}`,
    `base-uri ${base || "'self'"}`,
    "object-src 'none'",
    "form-action 'none'",
  ].join("; ");
}
