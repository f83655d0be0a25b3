"use client";

import { useState, type FormEvent } from "react";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, Select } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/spinner";
import { formatTime } from "@/components/calls/format";
import type { TokenScopeName } from "@/lib/core/access";
import type { ApiTokenInfo } from "@/lib/identity/auth";

type Opens = "api" | "gateway" | "both";
import { useCreateToken, useRevokeToken, useTokens } from "@/lib/identity/auth/hooks";
import { Cell, Row, Table } from "@/components/ui/table";

export function TokensSettings() {
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <CreateToken />
      <TokenList />
    </div>
  );
}

function CreateToken() {
  const create = useCreateToken();
  const [name, setName] = useState("");
  const [readOnly, setReadOnly] = useState(false);
  const [opens, setOpens] = useState<Opens>("api");

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return;
    const api: TokenScopeName[] = opens === "gateway" ? [] : [readOnly ? "read" : "full"];
    const scopes = opens === "api" ? api : [...api, "gateway" as const];
    create.mutate({ name: name.trim(), scopes }, { onSuccess: () => setName("") });
  }

  return (
    <section aria-labelledby="create-token-title" className="flex flex-col gap-3 rounded-lg border p-4">
      <h2 id="create-token-title" className="text-sm font-semibold">
        Create a token
      </h2>
      <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-2">
        <Field label="Token name" className="w-72">
          {(p) => <Input {...p} value={name} placeholder="ci" onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Opens" className="w-56">
          {(p) => (
            <Select {...p} value={opens} onChange={(e) => setOpens(e.target.value as Opens)}>
              <option value="api">The API</option>
              <option value="gateway">The MCP gateway (/mcp)</option>
              <option value="both">The API and the MCP gateway</option>
            </Select>
          )}
        </Field>
        <label className="flex h-8 items-center gap-1.5 text-sm">
          <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} />
          Read-only
        </label>
        <Button type="submit" variant="primary" busy={create.isPending} disabled={!name.trim()}>
          Create token
        </Button>
      </form>
      <ErrorAlert error={create.error} />
      {create.data && (
        <Alert
          tone="success"
          title={`Token “${create.data.token.name}” created. Copy it now: it is shown only once.`}
          action={<CopyButton text={create.data.secret} label="Copy token" />}
        >
          <code data-testid="token-secret" className="font-mono text-xs break-all select-all">
            {create.data.secret}
          </code>
        </Alert>
      )}
      <p className="text-xs text-muted">
        Use it as <code className="font-mono">Authorization: Bearer &lt;token&gt;</code> with the API, or as the bearer token of an MCP host connecting to a server this workspace offers through the gateway (a server’s Gateway tab). It works in this workspace only and acts with your role at most; a read-only token can only read (as a viewer: no tool calls through the gateway either).
      </p>
    </section>
  );
}

function TokenList() {
  const tokens = useTokens();
  const revoke = useRevokeToken();
  const [target, setTarget] = useState<ApiTokenInfo | null>(null);

  if (tokens.isPending) return <Skeleton className="h-32 w-full" />;
  if (tokens.error) return <ErrorAlert error={tokens.error} title="Could not load tokens" />;
  if (tokens.data.length === 0) return <EmptyState title="No API tokens yet">Create one for scripts, CI or the agent.</EmptyState>;

  return (
    <section aria-labelledby="tokens-title" className="flex flex-col gap-2">
      <h2 id="tokens-title" className="text-sm font-semibold">
        Tokens
      </h2>
      <Table columns={["Name", "Prefix", "Created", "Last used", "Status", { name: "Actions", hidden: true }]}>
          {tokens.data.map((token) => (
            <Row key={token.id}>
              <Cell className="font-medium">
                {token.name}
                {token.scope === "read" && (
                  <Badge className="ml-2" title="This token can only read">
                    read-only
                  </Badge>
                )}
                {token.scopes.includes("gateway") && (
                  <Badge className="ml-2" title={token.scope ? "Opens the API and the MCP gateway" : "Opens the MCP gateway only, not the API"}>
                    {token.scope ? "+ gateway" : "gateway only"}
                  </Badge>
                )}
              </Cell>
              <Cell label="Prefix" className="font-mono text-xs">{token.prefix}…</Cell>
              <Cell label="Created" className="text-xs text-muted">{formatTime(token.createdAt)}</Cell>
              <Cell label="Last used" className="text-xs text-muted">{token.lastUsedAt ? formatTime(token.lastUsedAt) : "never"}</Cell>
              <Cell>
                {token.revokedAt ? (
                  <Badge tone="red" title={`Revoked ${formatTime(token.revokedAt)}`}>
                    revoked
                  </Badge>
                ) : (
                  <Badge tone="green">active</Badge>
                )}
              </Cell>
              <Cell actions className="text-right">
                {!token.revokedAt && (
                  <Button size="sm" variant="ghost" className="text-red-600 dark:text-red-400" aria-label={`Revoke ${token.name}`} onClick={() => setTarget(token)}>
                    Revoke
                  </Button>
                )}
              </Cell>
            </Row>
          ))}
      </Table>
      <ConfirmDialog
        open={target !== null}
        onClose={() => {
          setTarget(null);
          revoke.reset();
        }}
        title={`Revoke “${target?.name ?? ""}”?`}
        description="Scripts using it stop working at once. This cannot be undone."
        confirmLabel="Revoke token"
        busy={revoke.isPending}
        error={<ErrorAlert error={revoke.error} />}
        onConfirm={() => target && revoke.mutate(target.id, { onSuccess: () => setTarget(null) })}
      />
    </section>
  );
}
