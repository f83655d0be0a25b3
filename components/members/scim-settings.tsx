"use client";

import { useState, useSyncExternalStore, type FormEvent } from "react";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, Input } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import { formatTime } from "@/components/calls/format";
import { useCan } from "@/lib/identity/auth/hooks";
import type { ScimTokenInfo } from "@/lib/team/scim";
import { useCreateScimToken, useRevokeScimToken, useScimTokens } from "@/lib/team/scim/hooks";
import { ScimGroupRoles } from "./scim-group-roles";

const noSubscription = () => () => undefined;

/** Settings → Members: SCIM provisioning (base URL, tokens, group → role mapping). Owners only. */
export function ScimSettings() {
  const owner = useCan("owner");
  if (!owner.allowed) return null;
  return (
    <section aria-labelledby="scim-title" className="flex flex-col gap-4 rounded-lg border p-4">
      <div className="flex flex-col gap-1">
        <h2 id="scim-title" className="text-sm font-semibold">
          SCIM provisioning
        </h2>
        <p className="text-xs text-muted">Your identity provider (Okta, Microsoft Entra ID…) creates, updates and deactivates members over SCIM 2.0, with a SCIM token as its bearer token.</p>
      </div>
      <BaseUrl />
      <CreateScimToken />
      <ScimTokenList />
      <ScimGroupRoles />
    </section>
  );
}

function BaseUrl() {
  // The console as this browser reaches it; null in the server's HTML.
  const origin = useSyncExternalStore(noSubscription, () => window.location.origin, () => null);
  const url = origin ? `${origin}/scim/v2` : "";
  return (
    <Field label="SCIM base URL" hint="Paste it into the identity provider (Okta: SCIM connector base URL; Entra ID: Tenant URL)." className="w-full sm:w-[32rem]">
      {(p) => (
        <div className="flex gap-2">
          <Input {...p} readOnly value={url} className="font-mono text-xs" />
          {url && <CopyButton text={url} label="Copy base URL" />}
        </div>
      )}
    </Field>
  );
}

function CreateScimToken() {
  const create = useCreateScimToken();
  const [name, setName] = useState("");
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate(name.trim(), { onSuccess: () => setName("") });
  };
  return (
    <div className="flex flex-col gap-2">
      <form onSubmit={onSubmit} aria-label="Create a SCIM token" className="flex flex-wrap items-end gap-2">
        <Field label="SCIM token name" className="w-full sm:w-72">
          {(p) => <Input {...p} value={name} maxLength={100} placeholder="okta" onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Button type="submit" variant="primary" busy={create.isPending} disabled={!name.trim()}>
          Create SCIM token
        </Button>
      </form>
      <ErrorAlert error={create.error} />
      {create.data && (
        <Alert tone="warning" title={`SCIM token “${create.data.token.name}” created. Copy it now: it is shown only once.`} action={<CopyButton text={create.data.secret} label="Copy SCIM token" />}>
          <code data-testid="scim-token-secret" className="font-mono text-xs break-all select-all">
            {create.data.secret}
          </code>
        </Alert>
      )}
    </div>
  );
}

function ScimTokenList() {
  const tokens = useScimTokens();
  const revoke = useRevokeScimToken();
  const [target, setTarget] = useState<ScimTokenInfo | null>(null);
  const close = () => {
    setTarget(null);
    revoke.reset();
  };

  if (tokens.isPending) return <Skeleton className="h-16 w-full" />;
  if (tokens.error) return <ErrorAlert error={tokens.error} title="Could not load the SCIM tokens" />;
  return (
    <div className="flex flex-col gap-2">
      <h3 id="scim-tokens-title" className="text-xs font-semibold">
        SCIM tokens
      </h3>
      {tokens.data.length === 0 ? (
        <p className="text-sm text-muted">No SCIM token: provisioning is off.</p>
      ) : (
        <Table aria-labelledby="scim-tokens-title" columns={["Name", "Prefix", "Created", "Last used", { name: "Actions", hidden: true }]}>
          {tokens.data.map((token) => (
            <Row key={token.id}>
              <Cell className="font-medium">{token.name}</Cell>
              <Cell label="Prefix" className="font-mono text-xs">{token.prefix}…</Cell>
              <Cell label="Created" className="text-xs text-muted">{formatTime(token.createdAt)}</Cell>
              <Cell label="Last used" className="text-xs text-muted">{token.lastUsedAt ? formatTime(token.lastUsedAt) : "never"}</Cell>
              <Cell actions className="text-right">
                <Button size="sm" variant="ghost" className="text-red-600 dark:text-red-400" aria-label={`Revoke the SCIM token ${token.name}`} onClick={() => setTarget(token)}>
                  Revoke
                </Button>
              </Cell>
            </Row>
          ))}
        </Table>
      )}
      <ConfirmDialog
        open={target !== null}
        onClose={close}
        onConfirm={() => target && revoke.mutate(target.id, { onSuccess: close })}
        title={`Revoke the SCIM token “${target?.name ?? ""}”?`}
        description="The identity provider using it is refused at once (401) and can no longer provision members. Members it created stay."
        confirmLabel="Revoke token"
        busy={revoke.isPending}
        error={<ErrorAlert error={revoke.error} />}
      />
    </div>
  );
}
