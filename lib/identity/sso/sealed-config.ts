import "server-only";
import { decryptJson, encryptJson } from "@/lib/core/crypto";

// A workspace owner's IdP client secret is kept in the SSO plugin's own table (sso_provider.oidc_config),
// which the plugin reads as plain JSON. It is stored sealed there, and opened only for the plugin.

const SEALED = "clientSecretSealed";

/** The JSON the plugin's table stores for a provider: its client secret encrypted. */
export function sealOidcConfig(config: Record<string, unknown> & { clientSecret?: string }): string {
  const { clientSecret, ...rest } = config;
  return JSON.stringify(clientSecret ? { ...rest, [SEALED]: encryptJson(clientSecret) } : rest);
}

/** The plugin's view of a stored config: the secret opened in place (a config without one is left as it is). */
export function openOidcConfig(stored: string | null): string | null {
  if (!stored || !stored.includes(SEALED)) return stored;
  const { [SEALED]: sealed, ...rest } = JSON.parse(stored) as Record<string, unknown>;
  return JSON.stringify(typeof sealed === "string" ? { ...rest, clientSecret: decryptJson<string>(sealed) } : rest);
}

function openRow(row: unknown): unknown {
  if (Array.isArray(row)) return row.map(openRow);
  if (row && typeof row === "object" && "oidcConfig" in row && (typeof row.oidcConfig === "string" || row.oidcConfig === null)) {
    return { ...row, oidcConfig: openOidcConfig(row.oidcConfig) };
  }
  return row;
}

interface Extendable<T> {
  $extends(extension: {
    query: { ssoProvider: { $allOperations(input: { args: unknown; query: (args: unknown) => Promise<unknown> }): Promise<unknown> } };
  }): T;
}

/** The Prisma client better-auth is handed: identical, except that it reads sso_provider rows with their secrets opened. */
export function withOpenedProviderSecrets<T>(client: Extendable<T>): T {
  return client.$extends({
    query: { ssoProvider: { $allOperations: async ({ args, query }) => openRow(await query(args)) } },
  });
}
