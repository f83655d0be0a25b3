import type { CallError, CallMethod, CallOrigin, CallStatus } from "@/lib/domains/calls";
import type { AssertionOutcome, RunOrigin, RunStatus, StepRunStatus } from "@/lib/domains/collections";
import type { ServerKind } from "@/lib/domains/servers";
export type { CreateShare, ListSharesQuery } from "./schemas";

export const SHARE_MAX_DAYS = 365;
/** The expiry choices the Share dialog offers, in days (null: never). */
export const SHARE_EXPIRY_CHOICES = [1, 7, 30, null] as const;

type ShareStatus = "active" | "expired" | "revoked";

/** A share link as its workspace sees it: of a call or of a collection run (exactly one of the two). */
export interface ShareDto {
  id: string;
  callId: string | null;
  runId: string | null;
  /** The public link; it answers 410 once the share is revoked or expired. */
  url: string;
  status: ShareStatus;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  createdBy: { id: string; name: string | null };
  viewCount: number;
  lastViewedAt: string | null;
  call: { name: string; method: CallMethod; serverName: string | null } | null;
  run: { collectionName: string; status: RunStatus; startedAt: string } | null;
  /** Whether the caller may revoke it: its creator, or an admin. */
  canRevoke: boolean;
}

/**
 * A call as the public sees it: no ids, no people, no workspace; arguments, result and error
 * redacted by field name; the server's URL without credentials or query.
 */
export interface SharedCall {
  method: CallMethod;
  name: string;
  status: CallStatus;
  isError: boolean;
  origin: CallOrigin;
  /** `url` only for kind "http"; the others have none to show (see serverWhere in components/shares). */
  server: { name: string; url: string | null; kind: ServerKind };
  params: unknown;
  result: unknown;
  error: CallError | null;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  requestSize: number;
  resultSize: number | null;
}

/** A step of a shared run: no step, call or server ids; every string redacted. */
export interface SharedRunStep {
  index: number;
  label: string;
  status: StepRunStatus;
  durationMs: number | null;
  error: string | null;
  assertions: AssertionOutcome[];
}

/**
 * A collection run as the public sees it: no ids, no people, no workspace; labels, messages,
 * errors and diffs redacted with the workspace's list and the values it masks (see shared-run.ts).
 */
export interface SharedRun {
  collectionName: string;
  status: RunStatus;
  environment: string | null;
  origin: RunOrigin;
  stopOnFailure: boolean;
  startedAt: string;
  finishedAt: string | null;
  passed: number;
  failed: number;
  total: number;
  steps: SharedRunStep[];
}

interface PublicShareInfo {
  createdAt: string;
  expiresAt: string | null;
}

/** GET /api/v1/public/shares/:token (and /s/:token with Accept: application/json): a call or a run. */
export type PublicShareDto = { kind: "call"; call: SharedCall; share: PublicShareInfo } | { kind: "run"; run: SharedRun; share: PublicShareInfo };

/**
 * The id of the `<script type="application/json">` in which the console serves a share page's
 * answer with its prerendered shell: the status and body the public API would answer.
 */
export const SHARE_PAGE_DATA_ID = "sb-share";
export type SharePageData = { status: 200; body: PublicShareDto } | { status: 404 | 410; body: { error: { code: string; message: string } } };

/** GET /api/v1/calls/:id/share-preview: exactly the public `call`, plus what was masked. */
export interface SharePreviewDto {
  call: SharedCall;
  /** Paths of masked fields, e.g. `params.arguments.password`; `(json)` marks a JSON text parsed and masked inside. */
  masked: string[];
  redactionKeys: string[];
  publicSharesEnabled: boolean;
}

export interface CallSharesDto {
  items: ShareDto[];
  publicSharesEnabled: boolean;
}

export const SHARES_DISABLED_MESSAGE = "Public share links are turned off for this workspace; an admin can turn them on in the workspace settings";

/** Share tokens look like `sbs_` + 43 base64url characters; anything else is not looked up. */
export const SHARE_TOKEN_PATTERN = /^sbs_[A-Za-z0-9_-]{43}$/;

export const shareKeys = {
  all: () => ["shares"] as const,
  list: () => ["shares", "list"] as const,
  forCall: (callId: string) => ["shares", "call", callId] as const,
  preview: (callId: string) => ["shares", "preview", callId] as const,
};
