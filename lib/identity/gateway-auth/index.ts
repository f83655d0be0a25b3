// Who may connect to the gateway with OAuth: the names, URLs and types the gateway and the consent page share.
export {
  GATEWAY_SCOPE,
  GATEWAY_SCOPES,
  gatewayChallenge,
  gatewayResourceUrl,
  parseGatewayResource,
  protectedResourceMetadataUrl,
  resourceCovers,
  resourceOfMetadataPath,
} from "@/lib/identity/auth";

/** What a valid gateway access token grants: who, through which client, with which scopes, for which endpoint. */
export interface GatewayGrant {
  userId: string;
  clientId: string;
  scopes: string[];
  /** The endpoint the token was issued for: the one asked about, or the aggregated endpoint of its workspace. */
  resource: string;
}

/** The scopes in plain words, for the consent page. */
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  gateway: "List and read the tools, prompts and resources of the servers above, and call tools, as you",
  offline_access: "Stay connected without asking you again, until the access is revoked",
};
