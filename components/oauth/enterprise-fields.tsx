"use client";

import { Field, Input } from "@/components/ui/field";

/** Enterprise-managed authorization (SEP-990): the company IdP that exchanges members' ID tokens, and its client. */
export interface EnterpriseFieldValues {
  idpIssuer: string;
  idpTokenEndpoint: string;
  idpClientId: string;
  /** Empty keeps the stored secret (write-only). */
  idpClientSecret: string;
  oauthIssuer: string;
}

export const EMPTY_ENTERPRISE: EnterpriseFieldValues = { idpIssuer: "", idpTokenEndpoint: "", idpClientId: "", idpClientSecret: "", oauthIssuer: "" };

/** The create fields (an update sends only what changed: see edit-server-dialog). */
export function enterprisePayload(values: EnterpriseFieldValues) {
  const trimmed = Object.entries(values).map(([k, v]) => [k, k === "idpClientSecret" ? v : v.trim()] as const);
  return Object.fromEntries(trimmed.filter(([, v]) => v));
}

export function EnterpriseFields({ values, onChange, secretSet }: { values: EnterpriseFieldValues; onChange: (values: EnterpriseFieldValues) => void; secretSet?: boolean }) {
  const set = (key: keyof EnterpriseFieldValues, value: string) => onChange({ ...values, [key]: value });
  const text = (key: keyof EnterpriseFieldValues) => ({ className: "font-mono text-xs", value: values[key], onChange: (e: { target: { value: string } }) => set(key, e.target.value) });
  return (
    <div className="grid grid-cols-2 gap-3">
      <Field label="Identity provider (issuer)" hint="Members' ID tokens from it are exchanged for access">
        {(p) => <Input {...p} {...text("idpIssuer")} placeholder="https://idp.example.com" />}
      </Field>
      <Field label="IdP token endpoint (optional)" hint="Else discovered from the issuer">
        {(p) => <Input {...p} {...text("idpTokenEndpoint")} />}
      </Field>
      <Field label="Client ID at the IdP">{(p) => <Input {...p} {...text("idpClientId")} />}</Field>
      <Field label="Client secret at the IdP (optional)" hint={secretSet ? "Leave empty to keep the stored one" : undefined}>
        {(p) => <Input {...p} type="password" autoComplete="new-password" {...text("idpClientSecret")} />}
      </Field>
      <Field label="Authorization server issuer (optional)" hint="The client below is sent to this authorization server only">
        {(p) => <Input {...p} {...text("oauthIssuer")} />}
      </Field>
    </div>
  );
}
