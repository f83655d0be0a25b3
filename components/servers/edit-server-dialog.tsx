"use client";

import { useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/field";
import type { ServerDto } from "@/lib/domains/servers";
import { useUpdateServer } from "@/lib/domains/servers/hooks";
import { UnattendedFields, type UnattendedValues } from "@/components/interactions/unattended-fields";
import { EMPTY_OAUTH, OAuthFields, type OAuthFieldValues } from "@/components/oauth/oauth-fields";
import { HeadersEditor, headersFromRows, type HeaderRow } from "./headers-editor";
import { issuesToErrors, ServerFields, type ServerFieldErrors, type ServerFieldValues } from "./server-fields";

/** What to do with a header that is already set: its value is never shown, only replaced or removed. */
type HeaderAction = { kind: "keep" } | { kind: "remove" } | { kind: "replace"; value: string };

export function EditServerDialog({ server, open, onClose }: { server: ServerDto; open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title={`Edit ${server.name}`} className="w-[min(40rem,calc(100vw-2rem))]">
      {open && <EditServerForm server={server} onDone={onClose} />}
    </Dialog>
  );
}

function EditServerForm({ server, onDone }: { server: ServerDto; onDone: () => void }) {
  const update = useUpdateServer(server.id);
  const [values, setValues] = useState<ServerFieldValues>({
    name: server.name,
    url: server.url ?? "",
    transport: server.transport,
    protocolEra: server.protocolEra,
    timeoutMs: String(server.timeoutMs),
    maxTotalTimeoutMs: server.maxTotalTimeoutMs === null ? "" : String(server.maxTotalTimeoutMs),
  });
  const [actions, setActions] = useState<Record<string, HeaderAction>>({});
  const [rows, setRows] = useState<HeaderRow[]>([]);
  const [errors, setErrors] = useState<ServerFieldErrors>({});
  const [unattended, setUnattended] = useState<UnattendedValues>({ policy: server.unattendedPolicy, waitSeconds: String(server.unattendedWaitMs / 1000) });
  const isHttp = server.kind === "http";
  const [shareProcess, setShareProcess] = useState(server.shareProcess);
  const [oauth, setOAuth] = useState<OAuthFieldValues>({
    ...EMPTY_OAUTH,
    authMode: server.authMode,
    clientId: server.oauthClientId ?? "",
    clientAuth: server.oauthClientAuth ?? "client_secret_basic",
    keyAlg: server.oauthKeyAlg ?? "RS256",
    scope: server.oauthScope ?? "",
    enterprise: { idpIssuer: server.idpIssuer ?? "", idpTokenEndpoint: server.idpTokenEndpoint ?? "", idpClientId: server.idpClientId ?? "", idpClientSecret: "", oauthIssuer: server.oauthIssuer ?? "" },
  });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    // zod stays out of the page's first load: only saving needs it.
    const { UpdateServerSchema } = await import("@/lib/domains/servers/schemas");
    const headers: Record<string, string | null> = {};
    for (const [name, action] of Object.entries(actions)) {
      if (action.kind === "remove") headers[name] = null;
      if (action.kind === "replace") headers[name] = action.value;
    }
    Object.assign(headers, headersFromRows(rows));
    const parsed = UpdateServerSchema.safeParse({
      name: values.name,
      ...(isHttp ? { url: values.url, transport: values.transport } : {}),
      // Sent only when changed: a change ends the live session and forgets the remembered era.
      ...(values.protocolEra !== server.protocolEra ? { protocolEra: values.protocolEra } : {}),
      timeoutMs: values.timeoutMs === "" ? undefined : Number(values.timeoutMs),
      maxTotalTimeoutMs: values.maxTotalTimeoutMs === "" ? null : Number(values.maxTotalTimeoutMs),
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(isHttp ? oauthUpdate(server, oauth) : {}),
      unattendedPolicy: unattended.policy,
      ...(server.kind === "agent" && shareProcess !== server.shareProcess ? { shareProcess } : {}),
      ...(unattended.waitSeconds !== "" ? { unattendedWaitMs: Math.round(Number(unattended.waitSeconds) * 1000) } : {}),
    });
    if (!parsed.success) {
      setErrors(issuesToErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    update.mutate(parsed.data, { onSuccess: onDone });
  }

  const setAction = (name: string, action: HeaderAction) => setActions({ ...actions, [name]: action });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label="Edit server">
      <ServerFields values={values} errors={errors} onChange={setValues} remote={isHttp} />
      {server.headerNames.length > 0 && (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-xs font-medium">Headers that are set</legend>
          {server.headerNames.map((name) => {
            const action = actions[name] ?? { kind: "keep" };
            return (
              <div key={name} className="flex items-center gap-2 text-sm" role="group" aria-label={`Header ${name}`}>
                <code className="w-2/5 truncate font-mono text-xs" title={name}>
                  {name}
                </code>
                {action.kind === "keep" && (
                  <>
                    <span className="flex-1 text-xs text-muted">•••• set</span>
                    <Button size="sm" onClick={() => setAction(name, { kind: "replace", value: "" })}>
                      Replace
                    </Button>
                    <Button size="sm" variant="ghost" className="text-red-600 dark:text-red-400" onClick={() => setAction(name, { kind: "remove" })}>
                      Remove
                    </Button>
                  </>
                )}
                {action.kind === "replace" && (
                  <>
                    <Input
                      type="password"
                      autoComplete="new-password"
                      aria-label={`New value for ${name}`}
                      placeholder="new value"
                      autoFocus
                      className="flex-1 font-mono text-xs"
                      value={action.value}
                      onChange={(e) => setAction(name, { kind: "replace", value: e.target.value })}
                    />
                    <Button size="sm" variant="ghost" onClick={() => setAction(name, { kind: "keep" })}>
                      Keep
                    </Button>
                  </>
                )}
                {action.kind === "remove" && (
                  <>
                    <span className="flex-1 text-xs text-red-600 line-through dark:text-red-400">will be removed</span>
                    <Button size="sm" variant="ghost" onClick={() => setAction(name, { kind: "keep" })}>
                      Undo
                    </Button>
                  </>
                )}
              </div>
            );
          })}
        </fieldset>
      )}
      {isHttp && <HeadersEditor rows={rows} onChange={setRows} title="Add headers" />}
      {isHttp && <OAuthFields values={oauth} onChange={setOAuth} secretSet={server.oauthClientId !== null} />}
      <UnattendedFields values={unattended} onChange={setUnattended} />
      {server.kind === "agent" && (
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-1" checked={shareProcess} onChange={(e) => setShareProcess(e.target.checked)} aria-describedby="share-process-hint" />
          <span>
            Reuse one process across gateway sessions
            <span id="share-process-hint" className="block text-xs text-muted">
              A host&apos;s sessions on this server&apos;s gateway endpoint share one server process instead of starting one each. Turn off for servers that keep state per session.
            </span>
          </span>
        </label>
      )}
      {errors.headers && <p className="text-xs text-red-600 dark:text-red-400">{errors.headers}</p>}
      <ErrorAlert error={update.error} title="Could not save" />
      <div className="flex justify-end gap-2">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={update.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}

/** Only what changed: a cleared client id removes the client and its secret; an empty secret keeps it. */
function oauthUpdate(server: ServerDto, oauth: OAuthFieldValues) {
  const clientId = oauth.clientId.trim() || null;
  return {
    ...(oauth.authMode !== server.authMode ? { authMode: oauth.authMode } : {}),
    ...(clientId !== server.oauthClientId ? { oauthClientId: clientId } : {}),
    ...(clientId && oauth.clientSecret ? { oauthClientSecret: oauth.clientSecret } : {}),
    ...(oauth.authMode === "oauth-machine"
      ? {
          ...(oauth.clientAuth !== server.oauthClientAuth ? { oauthClientAuth: oauth.clientAuth } : {}),
          ...(oauth.clientAuth === "private_key_jwt" && oauth.keyAlg !== server.oauthKeyAlg ? { oauthKeyAlg: oauth.keyAlg } : {}),
          ...((oauth.scope.trim() || null) !== server.oauthScope ? { oauthScope: oauth.scope.trim() || null } : {}),
        }
      : {}),
    ...(oauth.authMode === "enterprise-managed" ? enterpriseUpdate(server, oauth.enterprise) : {}),
  };
}

function enterpriseUpdate(server: ServerDto, values: OAuthFieldValues["enterprise"]) {
  const changed = (["idpIssuer", "idpTokenEndpoint", "idpClientId", "oauthIssuer"] as const).filter((k) => (values[k].trim() || null) !== server[k]);
  return { ...Object.fromEntries(changed.map((k) => [k, values[k].trim() || null])), ...(values.idpClientSecret ? { idpClientSecret: values.idpClientSecret } : {}) };
}
