"use client";

import { Field, Input, Select, Textarea } from "@/components/ui/field";
import type { AuthMode, ClientAuth } from "@/lib/domains/server-oauth";
import { EMPTY_ENTERPRISE, EnterpriseFields, enterprisePayload, type EnterpriseFieldValues } from "./enterprise-fields";

export interface OAuthFieldValues {
  authMode: AuthMode;
  clientId: string;
  /** Empty keeps the stored secret (write-only); for private_key_jwt, the private key. */
  clientSecret: string;
  clientAuth: ClientAuth;
  keyAlg: string;
  scope: string;
  enterprise: EnterpriseFieldValues;
}

export const EMPTY_OAUTH: OAuthFieldValues = { authMode: "none", clientId: "", clientSecret: "", clientAuth: "client_secret_basic", keyAlg: "RS256", scope: "", enterprise: EMPTY_ENTERPRISE };

const MODES: { value: AuthMode; label: string }[] = [
  { value: "none", label: "None (or headers)" },
  { value: "oauth-per-member", label: "OAuth: each member signs in for themselves" },
  { value: "oauth-shared", label: "OAuth: one shared workspace sign-in" },
  { value: "oauth-machine", label: "OAuth: machine credentials (client_credentials, for scripts and CI)" },
  { value: "enterprise-managed", label: "Enterprise-managed: each member's company sign-in (SEP-990, no consent screen)" },
];

const CLIENT_AUTH: { value: ClientAuth; label: string }[] = [
  { value: "client_secret_basic", label: "Client secret (HTTP Basic)" },
  { value: "client_secret_post", label: "Client secret (in the form body)" },
  { value: "private_key_jwt", label: "Private key JWT (RFC 7523)" },
  { value: "jwt_bearer", label: "JWT bearer grant: a workload identity token (RFC 7523)" },
];

/** The create/update fields for these values; `keepSecret`: an empty secret leaves the stored one. */
export function oauthPayload(values: OAuthFieldValues) {
  const clientId = values.clientId.trim();
  const machine = values.authMode === "oauth-machine";
  return {
    ...(values.authMode !== "none" && clientId ? { oauthClientId: clientId, ...(values.clientSecret ? { oauthClientSecret: values.clientSecret } : {}) } : {}),
    ...(values.authMode === "enterprise-managed" ? enterprisePayload(values.enterprise) : {}),
    ...(machine ? { oauthClientAuth: values.clientAuth, ...(values.clientAuth === "private_key_jwt" ? { oauthKeyAlg: values.keyAlg } : {}), ...(values.scope.trim() ? { oauthScope: values.scope.trim() } : {}) } : {}),
  };
}

/** Auth mode and an optional pre-registered OAuth client (admins; the secret is never shown again). */
export function OAuthFields({ values, onChange, secretSet }: { values: OAuthFieldValues; onChange: (values: OAuthFieldValues) => void; secretSet?: boolean }) {
  const set = <K extends keyof OAuthFieldValues>(key: K, value: OAuthFieldValues[K]) => onChange({ ...values, [key]: value });
  const machine = values.authMode === "oauth-machine";
  const enterprise = values.authMode === "enterprise-managed";
  const keyBased = machine && values.clientAuth === "private_key_jwt";
  const keep = secretSet ? "Leave empty to keep the stored one" : undefined;
  return (
    <fieldset className="flex flex-col gap-3">
      <Field label="Authorization" hint="Servers behind the MCP authorization spec need OAuth">
        {(p) => (
          <Select {...p} value={values.authMode} onChange={(e) => set("authMode", e.target.value as AuthMode)}>
            {MODES.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </Select>
        )}
      </Field>
      {machine && (
        <div className="grid grid-cols-2 gap-3">
          <Field label="Client authentication">
            {(p) => (
              <Select {...p} value={values.clientAuth} onChange={(e) => set("clientAuth", e.target.value as ClientAuth)}>
                {CLIENT_AUTH.map((m) => (
                  <option key={m.value} value={m.value}>
                    {m.label}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Scope (optional)">{(p) => <Input {...p} className="font-mono text-xs" value={values.scope} onChange={(e) => set("scope", e.target.value)} />}</Field>
        </div>
      )}
      {enterprise && <EnterpriseFields values={values.enterprise} onChange={(v) => set("enterprise", v)} secretSet={secretSet} />}
      {values.authMode !== "none" && (
        <div className="grid grid-cols-2 gap-3">
          <Field
            label={machine || enterprise ? "Client ID" : "Client ID (optional)"}
            hint={machine ? undefined : enterprise ? "Registered with the server's authorization server" : "Pre-registered with the server's authorization server; else the console registers itself"}
          >
            {(p) => <Input {...p} className="font-mono text-xs" value={values.clientId} onChange={(e) => set("clientId", e.target.value)} />}
          </Field>
          {keyBased ? (
            <Field label="Signing algorithm">{(p) => <Input {...p} className="font-mono text-xs" value={values.keyAlg} onChange={(e) => set("keyAlg", e.target.value)} />}</Field>
          ) : (
            <Field label={machine ? (values.clientAuth === "jwt_bearer" ? "Assertion (JWT)" : "Client secret") : enterprise ? "Client secret" : "Client secret (optional)"} hint={keep}>
              {(p) => <Input {...p} type="password" autoComplete="new-password" className="font-mono text-xs" value={values.clientSecret} onChange={(e) => set("clientSecret", e.target.value)} />}
            </Field>
          )}
        </div>
      )}
      {keyBased && (
        <Field label="Private key (PEM, or a JWK as JSON)" hint={keep ?? "Stored encrypted; never shown again"}>
          {(p) => <Textarea {...p} rows={4} spellCheck={false} className="font-mono text-xs" value={values.clientSecret} onChange={(e) => set("clientSecret", e.target.value)} />}
        </Field>
      )}
    </fieldset>
  );
}
