import type { UpdateServer } from "./index";

/** What a PATCH changed, for the audit log: field and header *names* only, never values. */
interface ServerChanges {
  fields: string[];
  headers: { added: string[]; removed: string[]; changed: string[] };
}

type Current = {
  name: string;
  url: string | null;
  transport: string;
  protocolEra: string;
  timeoutMs: number;
  maxTotalTimeoutMs: number | null;
  roots: string;
  unattendedPolicy: string;
  unattendedWaitMs: number;
  shareProcess?: boolean;
  pinDefinitions?: boolean;
  authMode: string;
  oauthClientId: string | null;
  idpIssuer?: string | null;
  idpTokenEndpoint?: string | null;
  idpClientId?: string | null;
  oauthIssuer?: string | null;
};

const FIELDS = ["name", "url", "transport", "protocolEra", "timeoutMs", "maxTotalTimeoutMs", "unattendedPolicy", "unattendedWaitMs", "shareProcess", "pinDefinitions", "authMode", "oauthClientId", "idpIssuer", "idpTokenEndpoint", "idpClientId", "oauthIssuer"] as const;

/** Compares an update with the stored row and the decrypted header values before it. */
export function describeServerChanges(current: Current, input: UpdateServer, headersBefore: Record<string, string>): ServerChanges {
  const fields: string[] = FIELDS.filter((f) => input[f] !== undefined && input[f] !== current[f]);
  if (input.roots && JSON.stringify(input.roots) !== current.roots) fields.push("roots");
  if (input.oauthClientSecret !== undefined) fields.push("oauthClientSecret");
  if (input.idpClientSecret !== undefined) fields.push("idpClientSecret");
  const headers: ServerChanges["headers"] = { added: [], removed: [], changed: [] };
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    const had = Object.hasOwn(headersBefore, name);
    if (value === null) {
      if (had) headers.removed.push(name);
    } else if (!had) headers.added.push(name);
    else if (headersBefore[name] !== value) headers.changed.push(name);
  }
  if (headers.added.length || headers.removed.length || headers.changed.length) fields.push("headers");
  return { fields, headers };
}
