"use client";

import { useEffect, useState, type FormEvent } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTheme } from "next-themes";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { safeNextPath } from "@/lib/identity/auth";
import { useSetupStatus, useSignIn } from "@/lib/identity/auth/hooks";
import { useSignInOptions, useSsoSignIn } from "@/lib/identity/sso/hooks";

// The console's own refusals of an SSO sign-in (lib/identity/sso/guard.ts, saml-binding.ts), in fixed words: the query string is anyone's to write.
const SSO_ERRORS: Record<string, string> = {
  email_outside_verified_domain: "This identity provider signs in only people with an email address in its organisation's verified domain: sign in with your own organisation's identity provider, or with your password.",
  idp_blocked_by_network_policy: "This identity provider cannot be reached under the console's outbound network policy: ask your workspace's admin.",
  saml_response_not_started_here: "The identity provider's answer does not belong to a sign-in started in this browser: start the sign-in again from this page.",
};

/**
 * Signs in and goes back to `?next=` (a same-origin path, checked with safeNextPath) or the servers.
 * The query is read when the form is sent, so the page itself is static.
 */
export function SignInForm() {
  const router = useRouter();
  const { setTheme } = useTheme();
  const signIn = useSignIn();
  const setup = useSetupStatus();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const options = useSignInOptions();
  const sso = useSsoSignIn();
  // better-auth comes back to /sign-in?error=… when the identity provider's sign-in did not complete.
  const [ssoError, setSsoError] = useState<string | null>(null);
  useEffect(() => setSsoError(new URLSearchParams(window.location.search).get("error")), []);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const next = safeNextPath(new URLSearchParams(window.location.search).get("next"));
    signIn.mutate(
      { email, password },
      {
        onSuccess: (theme) => {
          // A new browser shows the person's own theme from the console's first render.
          if (theme) setTheme(theme);
          // An OAuth authorization resumes at its API endpoint, which the client router cannot render.
          if (next?.startsWith("/api/")) window.location.assign(next);
          else router.replace(next ?? "/servers");
        },
      },
    );
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title" className="text-lg font-semibold">
        Sign in
      </h1>
      {setup.data?.needed && (
        <p className="text-sm text-muted">
          No account exists yet.{" "}
          <Link href="/setup" className="text-accent underline">
            Set up Switchboard
          </Link>
          .
        </p>
      )}
      {options.data?.providers.map((p) => (
        <Button
          key={p.providerId}
          type="button"
          busy={sso.isPending}
          onClick={() => sso.mutate({ providerId: p.providerId, next: safeNextPath(new URLSearchParams(window.location.search).get("next")) ?? "/servers" })}
        >
          Sign in with {p.name}
        </Button>
      ))}
      {ssoError && <ErrorAlert error={new Error(SSO_ERRORS[ssoError] ?? `The sign-in with your identity provider did not complete (${ssoError.replace(/_/g, " ")})`)} />}
      <ErrorAlert error={sso.error} />
      {!!options.data?.providers.length && <p className="text-center text-sm text-muted">or with your password</p>}
      <Field label="Email" required>
        {(p) => <Input {...p} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />}
      </Field>
      <Field label="Password" required>
        {(p) => <Input {...p} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
      </Field>
      <ErrorAlert error={signIn.error} />
      <Button type="submit" variant="primary" busy={signIn.isPending}>
        Sign in
      </Button>
    </form>
  );
}
