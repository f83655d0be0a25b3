"use client";

import { useState, type FormEvent } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { CopyButton } from "@/components/ui/copy-button";
import { Loading } from "@/components/ui/spinner";
import { useSetup, useSetupStatus } from "@/lib/identity/auth/hooks";

/** First run: creates the owner and the first workspace, then signs in. */
export function SetupForm() {
  const router = useRouter();
  const status = useSetupStatus();
  const setup = useSetup();
  const [form, setForm] = useState({ name: "", email: "", password: "", workspaceName: "Default", setupCode: "" });
  const passwordTooShort = form.password.length > 0 && form.password.length < 8;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const { setupCode, ...rest } = form;
    setup.mutate(setupCode ? form : rest);
  }

  if (setup.data) return <FirstToken token={setup.data.token} onContinue={() => router.replace("/")} />;
  if (status.isPending) return <Loading />;
  if (status.data?.needed === false && !setup.isSuccess) {
    return (
      <Alert tone="info" title="Switchboard is already set up">
        <Link href="/sign-in" className="underline">
          Sign in
        </Link>{" "}
        with your account instead.
      </Alert>
    );
  }

  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value });
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-labelledby="setup-title">
      <div>
        <h1 id="setup-title" className="text-lg font-semibold">
          Set up Switchboard
        </h1>
        <p className="text-sm text-muted">Create the owner account and your first workspace.</p>
      </div>
      <Field label="Name" required>
        {(p) => <Input {...p} autoComplete="name" value={form.name} onChange={set("name")} />}
      </Field>
      <Field label="Email" required>
        {(p) => <Input {...p} type="email" autoComplete="email" value={form.email} onChange={set("email")} />}
      </Field>
      <Field label="Password" required hint="At least 8 characters." error={passwordTooShort ? "Too short" : null}>
        {(p) => <Input {...p} type="password" autoComplete="new-password" minLength={8} value={form.password} onChange={set("password")} />}
      </Field>
      <Field label="Workspace name" required>
        {(p) => <Input {...p} value={form.workspaceName} onChange={set("workspaceName")} />}
      </Field>
      {status.data?.codeRequired && (
        <Field label="Set-up code" required hint="Printed in the console's log when it started (“Set-up code: …”). It proves you run this console.">
          {(p) => <Input {...p} autoComplete="off" spellCheck={false} value={form.setupCode} onChange={set("setupCode")} />}
        </Field>
      )}
      <ErrorAlert error={setup.error} />
      <Button type="submit" variant="primary" busy={setup.isPending}>
        Create account
      </Button>
    </form>
  );
}

/** The API token set-up created, shown this once: scripts, CI and the agent use tokens like it. */
function FirstToken({ token, onContinue }: { token: string; onContinue: () => void }) {
  return (
    <section className="flex flex-col gap-4" aria-labelledby="token-title">
      <div>
        <h1 id="token-title" className="text-lg font-semibold">
          Your API token
        </h1>
        <p className="text-sm text-muted">
          For scripts and CI (<code className="font-mono">Authorization: Bearer …</code>). It is shown only now: copy it if you need it. You can make more, and revoke this one, under
          Settings → API tokens.
        </p>
      </div>
      <div className="flex items-start gap-2">
        <pre data-testid="first-token" className="min-w-0 flex-1 overflow-x-auto rounded-md border bg-raised px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap select-all">
          {token}
        </pre>
        <CopyButton text={token} label="Copy token" size="md" />
      </div>
      <Button variant="primary" onClick={onContinue} autoFocus>
        Continue to the console
      </Button>
    </section>
  );
}
