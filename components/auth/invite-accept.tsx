"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { isApiError } from "@/lib/core/api-client";
import { useSignOut } from "@/lib/identity/auth/hooks";
import type { InvitationPreviewDto } from "@/lib/team/members";
import { useAcceptInvitation, useInvitationPreview } from "@/lib/team/members/hooks";

const GONE: Record<Exclude<InvitationPreviewDto["state"], "valid">, { title: string; body: string }> = {
  expired: { title: "This invitation has expired", body: "Invitation links work for 7 days. Ask for a new one." },
  revoked: { title: "This invitation was revoked", body: "Ask whoever invited you for a new link." },
  used: { title: "This invitation has already been used", body: "Each link works once. If you accepted it, sign in." },
};

/** /invite/<token>: a new person creates an account, an existing one signs in and joins. */
export function InviteAccept({ token }: { token: string }) {
  const preview = useInvitationPreview(token);

  if (preview.isPending) return <Loading label="Opening the invitation…" />;
  if (preview.error) {
    if (isApiError(preview.error, "not_found")) {
      return <Notice title="This invitation link is not valid">Check that you copied the whole link, or ask for a new one.</Notice>;
    }
    return <ErrorAlert error={preview.error} title="Could not open the invitation" />;
  }
  const invitation = preview.data;
  if (invitation.state !== "valid") {
    const gone = GONE[invitation.state];
    return <Notice title={gone.title}>{gone.body}</Notice>;
  }
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-lg font-semibold">Join {invitation.workspace.name}</h1>
        <p className="mt-1 text-sm text-muted">
          {invitation.inviter.name ?? "Someone"} invited <strong className="text-fg">{invitation.email}</strong> to join as {invitation.role === "admin" || invitation.role === "owner" ? "an" : "a"}{" "}
          <strong className="text-fg">{invitation.role}</strong>.
        </p>
      </div>
      <Choice token={token} invitation={invitation} onChanged={() => void preview.refetch()} />
    </div>
  );
}

function Choice({ token, invitation, onChanged }: { token: string; invitation: InvitationPreviewDto; onChanged: () => void }) {
  const router = useRouter();
  const accept = useAcceptInvitation();
  const signOut = useSignOut();
  const session = invitation.session;
  const signInHref = `/sign-in?next=${encodeURIComponent(`/invite/${token}`)}`;

  if (session?.alreadyMember) {
    return (
      <>
        <p className="text-sm">You are already a member of {invitation.workspace.name}.</p>
        <Link href="/servers" className={buttonClasses("primary")}>
          Open the console
        </Link>
      </>
    );
  }
  if (session && session.email.toLowerCase() === invitation.email) {
    return (
      <>
        <p className="text-sm text-muted">You are signed in as {session.name}.</p>
        <Button variant="primary" busy={accept.isPending} onClick={() => accept.mutate({ token }, { onSuccess: () => router.replace("/servers") })}>
          Join {invitation.workspace.name}
        </Button>
        <ErrorAlert error={accept.error} />
      </>
    );
  }
  if (session) {
    return (
      <>
        <p className="text-sm">
          You are signed in as {session.email}, but this invitation is for {invitation.email}. Sign out, then sign in or create the account for {invitation.email}.
        </p>
        <Button busy={signOut.isPending} onClick={() => signOut.mutate(undefined, { onSuccess: onChanged })}>
          Sign out
        </Button>
      </>
    );
  }
  if (invitation.accountExists) {
    return (
      <>
        <p className="text-sm">An account for {invitation.email} already exists. Sign in, and you will come back here to join.</p>
        <Link href={signInHref} className={buttonClasses("primary")}>
          Sign in to join
        </Link>
      </>
    );
  }
  return <NewAccountForm token={token} invitation={invitation} signInHref={signInHref} />;
}

function NewAccountForm({ token, invitation, signInHref }: { token: string; invitation: InvitationPreviewDto; signInHref: string }) {
  const router = useRouter();
  const accept = useAcceptInvitation();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    accept.mutate({ token, name: name.trim(), password }, { onSuccess: () => router.replace("/servers") });
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Create your account">
      <Field label="Email">{(p) => <Input {...p} type="email" value={invitation.email} readOnly />}</Field>
      <Field label="Your name" required>
        {(p) => <Input {...p} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Password" required hint="At least 8 characters.">
        {(p) => <Input {...p} type="password" autoComplete="new-password" minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} />}
      </Field>
      <ErrorAlert error={accept.error} />
      {isApiError(accept.error, "conflict") && (
        <Link href={signInHref} className="text-sm text-accent underline">
          Sign in instead
        </Link>
      )}
      <Button type="submit" variant="primary" busy={accept.isPending} disabled={!name.trim() || password.length < 8}>
        Create account and join
      </Button>
    </form>
  );
}

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-3" role="status">
      <h1 className="text-lg font-semibold">{title}</h1>
      <p className="text-sm text-muted">{children}</p>
      <Link href="/sign-in" className="text-sm text-accent underline">
        Go to sign in
      </Link>
    </div>
  );
}
