"use client";

import { useState, type FormEvent } from "react";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, Input, Select } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/spinner";
import { DisabledReason } from "@/components/ui/disabled-reason";
import { useCan } from "@/lib/identity/auth/hooks";
import type { WorkspaceProviderDto, WorkspaceSsoDto } from "@/lib/identity/sso";
import { useRegisterSsoProvider, useRemoveSsoProvider, useUpdateWorkspaceSso, useVerifySsoProvider, useWorkspaceSso } from "@/lib/identity/sso/hooks";

/** Settings → Workspace → Single sign-on: admins read it; the owner registers an IdP, verifies its domain, requires SSO. */
export function WorkspaceSso() {
  const admin = useCan("admin");
  const sso = useWorkspaceSso(admin.allowed);
  if (!admin.allowed) return null;
  return (
    <section aria-labelledby="workspace-sso-title" className="flex flex-col gap-4 rounded-lg border p-4">
      <h2 id="workspace-sso-title" className="text-sm font-semibold">
        Single sign-on
      </h2>
      {sso.isPending ? <Skeleton className="h-24 w-full" /> : sso.error ? <ErrorAlert error={sso.error} title="Could not load single sign-on" /> : <SsoBody sso={sso.data} />}
    </section>
  );
}

function SsoBody({ sso }: { sso: WorkspaceSsoDto }) {
  const owner = useCan("owner");
  // Owned here: a save remounts the rules form with the saved values, and the outcome must outlive that.
  const update = useUpdateWorkspaceSso();
  return (
    <>
      {sso.provider ? <ProviderState provider={sso.provider} owner={owner.allowed} /> : owner.allowed ? <RegisterProvider /> : <p className="text-sm text-muted">No identity provider: the workspace&apos;s owner can add one.</p>}
      <Requirements key={`${sso.ssoRequired}-${sso.ssoDefaultRole}`} sso={sso} owner={owner} update={update} />
    </>
  );
}

function ProviderState({ provider, owner }: { provider: WorkspaceProviderDto; owner: boolean }) {
  const verify = useVerifySsoProvider();
  const remove = useRemoveSsoProvider();
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="sso-provider">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{provider.name}</span>
        <Badge tone={provider.state === "active" ? "green" : "amber"}>{provider.state === "active" ? "Active" : "Domain not verified"}</Badge>
        <span className="text-muted">
          {provider.issuer} · @{provider.domain} · {provider.source === "operator" ? "set by the operator" : "added by the owner"}
        </span>
      </div>
      <p className="text-muted">
        Redirect URI to register at the identity provider: <code className="font-mono text-xs">{provider.redirectUri}</code>
      </p>
      {provider.verification && (
        <div className="flex flex-col gap-2 rounded-md border border-line p-3">
          <p>Publish this DNS record for {provider.domain}, then verify. Until then nobody signs in with this provider.</p>
          <dl className="flex flex-col gap-1 font-mono text-xs">
            <div className="flex items-center gap-3">
              <dt className="w-10 text-muted">TXT</dt>
              <dd className="flex flex-1 items-center gap-3">
                <span data-testid="sso-record-name" className="flex-1">{provider.verification.name}</span>
                <CopyButton text={provider.verification.name} label="Copy name" />
              </dd>
            </div>
            <div className="flex items-center gap-3">
              <dt className="w-10 text-muted">value</dt>
              <dd className="flex flex-1 items-center gap-3">
                <span data-testid="sso-record-value" className="flex-1 break-all">{provider.verification.value}</span>
                <CopyButton text={provider.verification.value} label="Copy value" />
              </dd>
            </div>
          </dl>
          {owner && (
            <div>
              <Button variant="primary" size="sm" busy={verify.isPending} onClick={() => verify.mutate()}>
                Verify
              </Button>
            </div>
          )}
          <ErrorAlert error={verify.error} />
        </div>
      )}
      {verify.isSuccess && <Alert tone="success">The domain is verified: people of @{provider.domain} can sign in.</Alert>}
      {owner && provider.source === "workspace" && (
        <div>
          <Button size="sm" onClick={() => setConfirming(true)}>
            Remove this identity provider
          </Button>
          <ConfirmDialog
            open={confirming}
            onClose={() => {
              setConfirming(false);
              remove.reset();
            }}
            title={`Remove “${provider.name}”?`}
            description={`People of @${provider.domain} can no longer sign in with it, and single sign-on stops being required. Their accounts and roles stay; passwords work again for those who have one.`}
            confirmLabel="Remove identity provider"
            busy={remove.isPending}
            error={<ErrorAlert error={remove.error} />}
            onConfirm={() => remove.mutate(undefined, { onSuccess: () => setConfirming(false) })}
          />
        </div>
      )}
    </div>
  );
}

function RegisterProvider() {
  const register = useRegisterSsoProvider();
  const [form, setForm] = useState({ name: "", issuer: "", clientId: "", clientSecret: "", domain: "" });
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value });
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    register.mutate(form);
  }
  return (
    <form onSubmit={onSubmit} aria-label="Add an identity provider" className="flex flex-col gap-3">
      <p className="text-sm text-muted">Add your organisation&apos;s OpenID Connect provider. It signs people in once you prove the email domain is yours with a DNS record.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Name" required>{(p) => <Input {...p} placeholder="Acme Login" value={form.name} onChange={set("name")} />}</Field>
        <Field label="Email domain" required>{(p) => <Input {...p} placeholder="acme.com" value={form.domain} onChange={set("domain")} />}</Field>
        <Field label="Issuer URL" required>{(p) => <Input {...p} placeholder="https://login.acme.com" value={form.issuer} onChange={set("issuer")} />}</Field>
        <Field label="Client ID" required>{(p) => <Input {...p} value={form.clientId} onChange={set("clientId")} />}</Field>
        <Field label="Client secret" required>{(p) => <Input {...p} type="password" autoComplete="off" value={form.clientSecret} onChange={set("clientSecret")} />}</Field>
      </div>
      <div>
        <Button type="submit" variant="primary" busy={register.isPending} disabled={Object.values(form).some((v) => !v.trim())}>
          Add identity provider
        </Button>
      </div>
      <ErrorAlert error={register.error} />
    </form>
  );
}

function Requirements({ sso, owner, update }: { sso: WorkspaceSsoDto; owner: { allowed: boolean; reason: string }; update: ReturnType<typeof useUpdateWorkspaceSso> }) {
  const [required, setRequired] = useState(sso.ssoRequired);
  const [role, setRole] = useState(sso.ssoDefaultRole);
  const [confirming, setConfirming] = useState(false);
  const active = sso.provider?.state === "active";
  // Turning the rule on (not keeping it on) is what would lock these people out.
  const lockOut = required && !sso.ssoRequired ? sso.lockOut : [];
  const save = () => update.mutate({ ssoRequired: required, ssoDefaultRole: role }, { onSettled: () => setConfirming(false) });
  return (
    <form
      aria-label="Single sign-on rules"
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (lockOut.length) setConfirming(true);
        else save();
      }}
    >
      <DisabledReason reason={owner.allowed ? null : owner.reason}>
        <fieldset className="flex flex-col gap-3">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={required} disabled={!active && !required} onChange={(e) => setRequired(e.target.checked)} />
            Require single sign-on (members&apos; passwords are refused; owners keep theirs)
          </label>
          <Field label="Role at the first sign-in" className="w-60">
            {(p) => (
              <Select {...p} value={role} onChange={(e) => setRole(e.target.value as WorkspaceSsoDto["ssoDefaultRole"])}>
                <option value="viewer">viewer</option>
                <option value="member">member</option>
                <option value="admin">admin</option>
              </Select>
            )}
          </Field>
        </fieldset>
      </DisabledReason>
      {lockOut.length > 0 && (
        <Alert tone="warning" title={`${lockOut.length} ${lockOut.length === 1 ? "member" : "members"} would be locked out`}>
          <LockOutList members={lockOut} domain={sso.provider?.domain ?? ""} />
        </Alert>
      )}
      {owner.allowed && (
        <div className="flex items-center gap-3">
          <Button type="submit" size="sm" busy={update.isPending && !confirming}>
            Save single sign-on
          </Button>
          {update.isSuccess && <Alert tone="success">Saved.</Alert>}
        </div>
      )}
      <ErrorAlert error={update.error} />
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Require single sign-on and lock these members out?"
        description={<LockOutList members={lockOut} domain={sso.provider?.domain ?? ""} />}
        confirmLabel={`Require SSO, lock out ${lockOut.length}`}
        busy={update.isPending}
        onConfirm={save}
      />
    </form>
  );
}

/** Who would be locked out, and why: their address is outside the provider's domain and they never signed in with it. */
function LockOutList({ members, domain }: { members: WorkspaceSsoDto["lockOut"]; domain: string }) {
  return (
    <div className="flex flex-col gap-1 whitespace-normal">
      <p>
        Their email is outside @{domain} and they have never signed in with the identity provider, so it cannot sign them in and their
        password would be refused. Their sessions and API tokens end when you save.
      </p>
      <ul aria-label="Members who would be locked out" className="list-disc pl-5">
        {members.map((m) => (
          <li key={m.userId}>
            {m.name} &lt;{m.email}&gt; · {m.role}
          </li>
        ))}
      </ul>
    </div>
  );
}
