// Isomorphic: the shape of a guided OAuth trace, shared by the recorder, the API and the UI.

/** The steps of the MCP authorization flow, in the order a client walks them. */
const OAUTH_STEP_IDS = ["challenge", "resource-metadata", "as-metadata", "client", "authorize", "callback", "token", "refresh"] as const;
export type OAuthStepId = (typeof OAUTH_STEP_IDS)[number];

/** `pending`: not run yet (e.g. the token step before anyone signed in). */
export type OAuthStepStatus = "ok" | "warning" | "failed" | "skipped" | "pending";

/** A request or response body as recorded: secrets masked, cut at a size. */
export type OAuthBody =
  | { kind: "json"; value: unknown }
  | { kind: "form"; value: Record<string, string> }
  | { kind: "text"; value: string; truncated: boolean };

/** One HTTP exchange with a resource or authorization server, secrets redacted. */
export interface OAuthExchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: OAuthBody | null;
  /** Null when no answer came (connection refused, timeout). */
  status: number | null;
  responseHeaders: Record<string, string>;
  responseBody: OAuthBody | null;
  error: string | null;
  durationMs: number;
}

/** A parameter of a request the console built (the authorization URL), with what it is for. */
export interface OAuthParam {
  name: string;
  value: string;
  note: string;
}

export interface OAuthStep {
  id: OAuthStepId;
  title: string;
  status: OAuthStepStatus;
  expected: string;
  found: string;
  /** Plain words on what went wrong and what to change; set for failures and warnings. */
  diagnosis: string | null;
  exchanges: OAuthExchange[];
  params?: OAuthParam[];
}

/** "checks": discovery run on demand; "sign-in": a person's real authorization; "refresh": the last token refresh. */
export type OAuthTraceKind = "checks" | "sign-in" | "refresh";

export interface OAuthTrace {
  kind: OAuthTraceKind;
  at: string;
  /** Who ran it (the console for a refresh it did on its own). */
  by: string | null;
  steps: OAuthStep[];
}
