import { ClientCredentialsProvider, PrivateKeyJwtProvider, type OAuthClientProvider, type StoredOAuthClientInformation } from "@modelcontextprotocol/client";

/** OAuth client credentials for a server used by the console itself (no person signs in). */
export interface MachineCredentials {
  /** jwt_bearer: no client authentication; the secret is a JWT a platform issued (RFC 7523 §2.1 grant, workload identity). */
  method: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "jwt_bearer";
  clientId: string;
  /** The client secret; for private_key_jwt the private key (PEM, or a JWK as JSON); for jwt_bearer the assertion. */
  secret: string;
  /** private_key_jwt: the signing algorithm (RS256, ES256…). */
  algorithm?: string;
  scope?: string;
}

/**
 * The SDK's own providers for the `client_credentials` grant. Their tokens live with the
 * connection: a new connection asks the authorization server again, which is what the grant is for.
 */
export function machineProvider(credentials: MachineCredentials): OAuthClientProvider {
  const common = { clientId: credentials.clientId, clientName: "Switchboard", ...(credentials.scope ? { scope: credentials.scope } : {}) };
  if (credentials.method === "private_key_jwt") {
    const key = credentials.secret.trim();
    return new PrivateKeyJwtProvider({ ...common, privateKey: key.startsWith("{") ? (JSON.parse(key) as Record<string, unknown>) : key, algorithm: credentials.algorithm ?? "RS256" });
  }
  if (credentials.method === "jwt_bearer") return new JwtBearerProvider(common, credentials.secret.trim());
  return new SecretProvider({ ...common, clientSecret: credentials.secret }, credentials.method);
}

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** The JWT bearer authorization grant (RFC 7523 §2.1): the assertion is the credential; the client itself is public. */
class JwtBearerProvider extends ClientCredentialsProvider {
  constructor(
    options: { clientId: string; clientName: string; scope?: string },
    private readonly assertion: string,
  ) {
    super({ ...options, clientSecret: "" });
  }

  override get clientMetadata() {
    return { ...super.clientMetadata, grant_types: [JWT_BEARER], token_endpoint_auth_method: "none" };
  }

  override clientInformation(): StoredOAuthClientInformation {
    return { client_id: super.clientInformation().client_id, token_endpoint_auth_method: "none" };
  }

  override prepareTokenRequest(scope?: string): URLSearchParams {
    const params = new URLSearchParams({ grant_type: JWT_BEARER, assertion: this.assertion });
    if (scope) params.set("scope", scope);
    return params;
  }
}

/** ClientCredentialsProvider, with the token endpoint authentication the admin chose (basic or post). */
class SecretProvider extends ClientCredentialsProvider {
  constructor(
    options: ConstructorParameters<typeof ClientCredentialsProvider>[0],
    private readonly method: "client_secret_basic" | "client_secret_post",
  ) {
    super(options);
  }

  override clientInformation(): StoredOAuthClientInformation {
    return { ...super.clientInformation(), token_endpoint_auth_method: this.method };
  }
}
