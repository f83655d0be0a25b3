import type { ReactNode } from "react";
import { SignInButton } from "@/components/oauth/sign-in-button";
import { isSignInRequired } from "@/lib/domains/server-oauth";
import { cn } from "./cn";

type Tone = "error" | "warning" | "info" | "success";

const TONES: Record<Tone, string> = {
  error: "border-red-300 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200",
  warning: "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200",
  info: "border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-900 dark:bg-sky-950/40 dark:text-sky-200",
  success: "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-200",
};

/** A message box; errors are announced (role="alert"), other tones are polite (role="status"). */
export function Alert({ tone = "error", title, children, className, action }: { tone?: Tone; title?: ReactNode; children?: ReactNode; className?: string; action?: ReactNode }) {
  return (
    <div role={tone === "error" ? "alert" : "status"} className={cn("flex items-start gap-3 rounded-md border px-3 py-2 text-sm", TONES[tone], className)}>
      <div className="min-w-0 flex-1">
        {title && <p className="font-semibold">{title}</p>}
        {children && <div className="break-words whitespace-pre-wrap">{children}</div>}
      </div>
      {action}
    </div>
  );
}

/** Shows an error from a query or mutation, if any. */
export function ErrorAlert({ error, title, className }: { error: unknown; title?: string; className?: string }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  // A server behind OAuth that needs the person to sign in: offer it instead of a dead end.
  const details = (error as { details?: unknown }).details;
  return (
    <Alert tone="error" title={title} className={className} action={isSignInRequired(details) ? <SignInButton need={details} /> : undefined}>
      {message}
    </Alert>
  );
}
