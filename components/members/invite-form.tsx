"use client";

import { useState, type FormEvent } from "react";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, Input } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import type { Role } from "@/lib/core/access";
import { useCan } from "@/lib/identity/auth/hooks";
import { useCreateInvitation } from "@/lib/team/members/hooks";
import { RoleSelect } from "./role-select";

/** Invite by address and role; the link is shown to copy, and mailed when the console can send mail. */
export function InviteForm() {
  const create = useCreateInvitation();
  const owner = useCan("owner").allowed;
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (email.trim()) create.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail("") });
  }

  const created = create.data;
  return (
    <section aria-labelledby="invite-title" className="flex flex-col gap-3 rounded-lg border p-4">
      <h2 id="invite-title" className="text-sm font-semibold">
        Invite someone
      </h2>
      <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-2">
        <Field label="Email address" className="w-72">
          {(p) => <Input {...p} type="email" value={email} placeholder="grace@example.com" onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label="Role" className="w-36">
          {(p) => <RoleSelect {...p} value={role} onChange={setRole} ownerAllowed={owner} />}
        </Field>
        <RoleGate action="invite">
          <Button type="submit" variant="primary" busy={create.isPending} disabled={!email.trim()}>
            Invite
          </Button>
        </RoleGate>
      </form>
      <ErrorAlert error={create.error} />
      {created && (
        <Alert
          tone={created.emailed ? "success" : "info"}
          title={created.emailed ? `Invitation mailed to ${created.email}.` : `Invitation for ${created.email} created. Send them this link.`}
          action={<CopyButton text={created.url} label="Copy link" />}
        >
          <code data-testid="invitation-url" className="font-mono text-xs break-all select-all">
            {created.url}
          </code>
          {!created.emailed && created.emailError && <span className="mt-1 block text-xs">Not mailed: {created.emailError}</span>}
        </Alert>
      )}
      <p className="text-xs text-muted">The link works once and expires in 7 days. Viewers read everything that is not secret; members run tools; admins manage servers and people.</p>
    </section>
  );
}
