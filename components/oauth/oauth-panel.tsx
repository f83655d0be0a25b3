"use client";

import Link from "next/link";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { useOAuthStatus, useSignInToServer } from "@/lib/domains/server-oauth/hooks";
import { useSignOutOfServer } from "@/lib/domains/servers/hooks";
import type { ServerDto } from "@/lib/domains/servers";

/** The server page's sign-in state for OAuth servers: who is signed in, scope and expiry, sign in and out. */
export function OAuthPanel({ server }: { server: ServerDto }) {
  const enabled = server.authMode !== "none" && server.authMode !== "oauth-machine";
  const status = useOAuthStatus(server.id, enabled);
  const signIn = useSignInToServer(server.id);
  const signOut = useSignOutOfServer(server.id);
  if (server.authMode === "oauth-machine") {
    return (
      <section aria-label="OAuth" className="flex flex-wrap items-center gap-3 border-b px-6 py-3 text-sm">
        <span className="font-medium">OAuth</span>
        <span className="text-xs text-muted">
          Machine credentials: client <span className="font-mono">{server.oauthClientId}</span> ({server.oauthClientAuth ?? "client_secret_basic"}
          {server.oauthScope ? `, scope ${server.oauthScope}` : ""}); the console obtains its own tokens, nobody signs in.
        </span>
      </section>
    );
  }
  if (server.authMode === "enterprise-managed") {
    const s = status.data;
    return (
      <section aria-label="OAuth" className="flex flex-wrap items-center gap-3 border-b px-6 py-3 text-sm">
        <span className="font-medium">OAuth</span>
        <span className="text-xs text-muted">
          Enterprise-managed: your sign-in with <span className="font-mono">{server.idpIssuer}</span> is exchanged for access, no consent screen.
        </span>
        {s && (
          <span data-testid="oauth-state" className="text-xs">
            {s.signedIn ? `Signed in with your identity provider${s.expiresAt ? ` · until ${new Date(s.expiresAt).toLocaleTimeString()}` : ""}` : "Sign in to the console with your identity provider first"}
          </span>
        )}
      </section>
    );
  }
  if (!enabled) return null;
  const shared = server.authMode === "oauth-shared";
  const s = status.data;
  return (
    <section aria-label="OAuth" className="flex flex-col gap-2 border-b px-6 py-3 text-sm">
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-medium">OAuth</span>
        <span className="text-xs text-muted">{shared ? "One shared sign-in for the workspace" : "Each member signs in for themselves"}</span>
        {s && (
          <span data-testid="oauth-state" className="text-xs">
            {s.signedIn
              ? `Signed in${shared && s.signedInBy ? ` (by ${s.signedInBy})` : ""}${s.scope ? ` · scope ${s.scope}` : ""}${s.expiresAt ? ` · token until ${new Date(s.expiresAt).toLocaleTimeString()}` : ""}`
              : "Not signed in"}
          </span>
        )}
        <span className="flex-1" />
        {s && !s.signedIn && (
          <Button size="sm" variant="primary" busy={signIn.isPending} onClick={() => signIn.mutate(undefined)}>
            Sign in to {server.name}
          </Button>
        )}
        {s?.signedIn && (
          <Button size="sm" busy={signOut.isPending} onClick={() => signOut.mutate()}>
            Sign out of this server
          </Button>
        )}
        {/* Last, so the sign-in buttons arriving with the status never move it. */}
        <Link href={`/servers/${encodeURIComponent(server.id)}/oauth`} className={buttonClasses("ghost", "sm")}>
          Step by step
        </Link>
      </div>
      {signOut.data?.revocationError && (
        <Alert tone="warning">Signed out here, but the authorization server refused the revocation: {signOut.data.revocationError}</Alert>
      )}
      <ErrorAlert error={status.error ?? signIn.error ?? signOut.error} title="OAuth" />
    </section>
  );
}
