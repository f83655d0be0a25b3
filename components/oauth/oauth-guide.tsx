"use client";

import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { CopyButton } from "@/components/ui/copy-button";
import { RoleGate } from "@/components/ui/role-gate";
import { Loading } from "@/components/ui/spinner";
import type { OAuthTrace } from "@/lib/domains/server-oauth";
import { useOAuthTraces, useRunOAuthChecks, useSignInToServer } from "@/lib/domains/server-oauth/hooks";
import { useServer } from "@/lib/domains/servers/hooks";
import { OAuthStepList } from "./oauth-step-list";

/**
 * The guided OAuth view of one server: live discovery checks anyone with the member role can run,
 * and the caller's last real sign-in and refresh, step by step with what was sent and received.
 */
export function OAuthGuide({ id }: { id: string }) {
  const server = useServer(id);
  const traces = useOAuthTraces(id);
  const checks = useRunOAuthChecks(id);
  const signIn = useSignInToServer(id);
  if (server.isPending || traces.isPending) return <Loading />;
  if (server.error) return <ErrorAlert error={server.error} title="Could not load the server" className="m-6" />;
  const s = server.data;
  const flow = traces.data?.signIn;
  const refresh = traces.data?.refresh;

  return (
    <div className="flex flex-col gap-6 px-6 py-4">
      <header className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="text-xs">
            <Link href={`/servers/${encodeURIComponent(id)}`} className="text-muted hover:underline">
              ← {s.name}
            </Link>
          </p>
          <h1 className="text-lg font-semibold tracking-tight">OAuth, step by step</h1>
          <p className="font-mono text-xs break-all text-muted">{s.url}</p>
          <p className="mt-1 max-w-3xl text-sm text-muted">
            How a client finds this server&apos;s authorization server, identifies itself, and gets a token. Requests and answers are shown with secrets masked.
          </p>
        </div>
        <div className="flex items-center gap-2">
          <RoleGate min="member">
            <Button variant="primary" busy={checks.isPending} onClick={() => checks.mutate()} disabled={s.kind !== "http"}>
              Run checks
            </Button>
          </RoleGate>
          {s.authMode !== "none" && (
            <RoleGate min="member">
              <Button busy={signIn.isPending} onClick={() => signIn.mutate(undefined)}>
                Sign in to {s.name}
              </Button>
            </RoleGate>
          )}
        </div>
      </header>
      <ErrorAlert error={traces.error ?? checks.error ?? signIn.error} title="OAuth" />

      <section aria-labelledby="oauth-checks" className="flex flex-col gap-2">
        <TraceHeading id="oauth-checks" title="Checks" trace={traces.data?.checks ?? null} />
        {traces.data?.checks ? (
          <OAuthStepList label="Check steps" steps={traces.data.checks.steps} />
        ) : (
          <EmptyState title="No checks yet">Run checks to walk the discovery live: the 401, the resource metadata, the authorization server&apos;s metadata and the client identity.</EmptyState>
        )}
      </section>

      <section aria-labelledby="oauth-sign-in" className="flex flex-col gap-2">
        <TraceHeading id="oauth-sign-in" title={s.authMode === "oauth-shared" ? "Last sign-in (shared credential)" : "Your last sign-in"} trace={flow ?? null} />
        {flow ? (
          <OAuthStepList label="Sign-in steps" steps={[...flow.steps, ...(refresh?.steps.filter((step) => step.id === "refresh") ?? [])]} />
        ) : (
          <EmptyState title="No sign-in recorded">
            {s.authMode === "none" ? (
              <>This server is not set up for OAuth; an admin can choose an auth mode in its settings.</>
            ) : (
              <>Sign in to {s.name} and come back: each request of the flow shows up here.</>
            )}
          </EmptyState>
        )}
        {refresh && <p className="text-xs text-muted">Last refresh {new Date(refresh.at).toLocaleString()}</p>}
      </section>

      <p className="text-xs">
        <Link href={`/servers/${encodeURIComponent(id)}`} className={buttonClasses("ghost", "sm")}>
          Back to {s.name}
        </Link>
      </p>
    </div>
  );
}

function TraceHeading({ id, title, trace }: { id: string; title: string; trace: OAuthTrace | null }) {
  return (
    <div className="flex flex-wrap items-baseline gap-2">
      <h2 id={id} className="text-base font-semibold">
        {title}
      </h2>
      {trace && (
        <>
          <span className="text-xs text-muted">
            {new Date(trace.at).toLocaleString()}
            {trace.by ? ` · ${trace.by}` : ""}
          </span>
          <span className="flex-1" />
          {/* Already masked on the server: safe to paste into an issue for the server's developers. */}
          <CopyButton text={JSON.stringify(trace, null, 2)} label="Copy as JSON" />
        </>
      )}
    </div>
  );
}
