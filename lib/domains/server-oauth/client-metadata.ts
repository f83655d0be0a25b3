import "server-only";
import { config } from "@/lib/core/config";
import type { RequestHead } from "@/lib/core/access";
import { consoleOrigin } from "@/lib/identity/auth";

/** Where authorization servers send the browser back to the console. */
export const CALLBACK_PATH = "/api/v1/oauth/callback";
const CLIENT_METADATA_PATH = "/oauth/client-metadata.json";

/**
 * The URL of the console's Client ID Metadata Document, which is its client_id. Authorization
 * servers fetch it over https only: SWITCHBOARD_CLIENT_METADATA_URL when set (a TLS proxy serves
 * /oauth/client-metadata.json at that URL), else the console's own origin when it is https.
 */
export function clientMetadataUrl(request: RequestHead): string | undefined {
  const configured = config().clientMetadataUrl;
  if (configured) return configured;
  const origin = consoleOrigin(request);
  return origin.startsWith("https://") ? `${origin}${CLIENT_METADATA_PATH}` : undefined;
}

/** The Client ID Metadata Document the console serves at /oauth/client-metadata.json. */
export function clientMetadataDocument(request: RequestHead) {
  const origin = consoleOrigin(request);
  return {
    client_id: clientMetadataUrl(request) ?? `${origin}${CLIENT_METADATA_PATH}`,
    client_name: "Switchboard",
    client_uri: origin,
    redirect_uris: [`${origin}${CALLBACK_PATH}`],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
}
