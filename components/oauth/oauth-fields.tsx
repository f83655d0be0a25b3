"use client";

import { Field, Input, Select } from "@/components/ui/field";
import type { AuthMode } from "@/lib/oauth";

export interface OAuthFieldValues {
  authMode: AuthMode;
  clientId: string;
  /** Empty keeps the stored secret (write-only). */
  clientSecret: string;
}

const MODES: { value: AuthMode; label: string }[] = [
  { value: "none", label: "None (or headers)" },
  { value: "oauth-per-member", label: "OAuth: each member signs in for themselves" },
  { value: "oauth-shared", label: "OAuth: one shared workspace sign-in" },
];

/** Auth mode and an optional pre-registered OAuth client (admins; the secret is never shown again). */
export function OAuthFields({ values, onChange, secretSet }: { values: OAuthFieldValues; onChange: (values: OAuthFieldValues) => void; secretSet?: boolean }) {
  const set = <K extends keyof OAuthFieldValues>(key: K, value: OAuthFieldValues[K]) => onChange({ ...values, [key]: value });
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
      {values.authMode !== "none" && (
        <div className="grid grid-cols-2 gap-3">
          <Field label="Client ID (optional)" hint="Pre-registered with the server's authorization server; else the console registers itself">
            {(p) => <Input {...p} className="font-mono text-xs" value={values.clientId} onChange={(e) => set("clientId", e.target.value)} />}
          </Field>
          <Field label="Client secret (optional)" hint={secretSet ? "Leave empty to keep the stored secret" : undefined}>
            {(p) => <Input {...p} type="password" autoComplete="new-password" className="font-mono text-xs" value={values.clientSecret} onChange={(e) => set("clientSecret", e.target.value)} />}
          </Field>
        </div>
      )}
    </fieldset>
  );
}
