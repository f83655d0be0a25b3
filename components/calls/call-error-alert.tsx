"use client";

import { SignInButton } from "@/components/oauth/sign-in-button";
import { Alert } from "@/components/ui/alert";
import { isApiError } from "@/lib/core/api-client";
import { isSignInRequired } from "@/lib/domains/server-oauth";
import type { CallError } from "@/lib/domains/calls";
import { useRenderSource } from "./render-context";

const KIND_TITLE: Record<CallError["kind"], string> = {
  protocol: "The server answered with an error",
  timeout: "The call timed out",
  cancelled: "The call was cancelled",
  connection: "Could not reach the server",
  validation: "The arguments were rejected",
  interrupted: "The console stopped while the call was running",
  offline: "The server's agent is offline",
  policy: "A workspace rule refused the call",
};

/** The error recorded on a call (status other than ok). */
export function CallErrorBox({ error }: { error: CallError }) {
  const { readOnly } = useRenderSource();
  const signIn = error.oauth && !readOnly ? <SignInButton need={error.oauth} /> : undefined;
  return (
    <Alert tone={error.kind === "cancelled" ? "warning" : "error"} title={KIND_TITLE[error.kind] ?? "The call failed"} action={signIn}>
      <span className="font-mono text-xs">
        {error.kind}
        {error.code !== undefined ? ` ${error.code}` : ""}
      </span>
      {": "}
      {error.message}
    </Alert>
  );
}

/** An API failure (the request never became a call): e.g. 404, 409, 502. */
export function CallErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const title = isApiError(error, "upstream_error")
    ? "The server could not be reached"
    : isApiError(error, "conflict")
      ? "Conflict"
      : isApiError(error, "not_found")
        ? "Not found"
        : "The request failed";
  const details = (error as { details?: unknown }).details;
  return (
    <Alert tone="error" title={title} action={isSignInRequired(details) ? <SignInButton need={details} /> : undefined}>
      {message}
    </Alert>
  );
}
