import {
  auth,
  UnauthorizedError,
  type DpopSession,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type FetchLike,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { dpopAlgFor, newDpopKey, restoreDpopSession, type StoredDpopKey } from "./dpop";

/** Refresh this long before the access token expires. */
const REFRESH_MARGIN_MS = 30_000;

/** A token set as the console keeps it: the SDK's tokens plus when they expire and where they came from. */
export interface OAuthTokenRecord {
  tokens: StoredOAuthTokens;
  issuer: string | null;
  expiresAt: number | null;
  discovery: OAuthDiscoveryState | null;
  /** The client the tokens were issued to: refreshes use it even after a newer registration. */
  client?: StoredOAuthClientInformation;
  /** The DPoP key the tokens are bound to (RFC 9449), when the authorization server issued DPoP tokens. */
  dpopKey?: StoredDpopKey;
}

/**
 * Where a provider keeps what outlives one request; lib/domains/server-oauth implements it over the database
 * (one credential per server and subject, client registrations per workspace and issuer).
 */
export interface OAuthStore {
  redirectUrl: string;
  clientName: string;
  /** An https URL of the console's Client ID Metadata Document, when the console has one. */
  clientMetadataUrl?: string;
  /**
   * How discovery, registration, token and refresh requests go out: the console's address policy,
   * recording the exchanges for the guided OAuth view where one is kept. Absent: global fetch.
   */
  fetch?: FetchLike;
  client(issuer: string | undefined): Promise<StoredOAuthClientInformation | undefined>;
  saveClient(info: StoredOAuthClientInformation, issuer: string, method: "cimd" | "dcr"): Promise<void>;
  tokens(): Promise<OAuthTokenRecord | undefined>;
  saveTokens(record: OAuthTokenRecord): Promise<void>;
  forgetTokens(): Promise<void>;
}

/** What a flow must carry from the authorize request to the callback. */
export interface PendingAuthorization {
  authorizationUrl: string;
  codeVerifier: string;
  discovery: OAuthDiscoveryState | null;
  /** The client the authorization was started with: the code is bound to it. */
  client: StoredOAuthClientInformation | null;
}

/**
 * The SDK's OAuthClientProvider over an OAuthStore. Discovery, registration, PKCE, token requests
 * and refresh are the SDK's `auth()`; this class only keeps state. `redirectToAuthorization`
 * captures the URL for the browser instead of redirecting anything.
 */
export class ConsoleOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  private verifier: string | null = null;
  private discovery: OAuthDiscoveryState | null = null;
  private refreshing: Promise<unknown> | null = null;
  private client: StoredOAuthClientInformation | null = null;
  private readonly pinnedClient: boolean;
  /** Redeeming a code at the callback (as opposed to starting a sign-in or using the tokens). */
  private readonly callbackLeg: boolean;
  private dpopSession: Promise<DpopSession> | null = null;
  private dpopFor: string | null = null;
  private newDpopKey: StoredDpopKey | null = null;

  constructor(
    private readonly store: OAuthStore,
    private readonly serverUrl: string,
    private readonly flowState?: string,
    preset?: { codeVerifier: string; discovery: OAuthDiscoveryState | null; client: StoredOAuthClientInformation | null },
  ) {
    if (preset) {
      this.verifier = preset.codeVerifier;
      this.discovery = preset.discovery;
      this.client = preset.client;
    }
    this.pinnedClient = !!preset?.client;
    this.callbackLeg = !!preset;
    if (store.clientMetadataUrl) this.clientMetadataUrl = store.clientMetadataUrl;
  }

  clientMetadataUrl?: string;

  get redirectUrl(): string {
    return this.store.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.store.clientName,
      redirect_uris: [this.store.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    };
  }

  state(): string {
    return this.flowState ?? "";
  }

  /**
   * A callback uses the client its authorization started with; a live connection the client its
   * tokens were issued to; a new authorization the workspace's registration for the issuer.
   */
  async clientInformation(ctx?: OAuthClientInformationContext) {
    if (this.pinnedClient && this.client) return this.client;
    const own = this.flowState === undefined ? (await this.store.tokens())?.client : undefined;
    this.client = own ?? (await this.store.client(ctx?.issuer)) ?? null;
    return this.client ?? undefined;
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext) {
    this.client = info;
    const issuer = ctx?.issuer ?? info.issuer ?? "";
    await this.store.saveClient(info, issuer, info.client_id === this.clientMetadataUrl ? "cimd" : "dcr");
  }

  /** Called with no ctx before every MCP request: a token about to expire is refreshed first. */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const record = await this.store.tokens();
    if (!record) return undefined;
    if (ctx) return record.issuer && record.issuer !== ctx.issuer ? undefined : { ...record.tokens, ...(record.issuer ? { issuer: record.issuer } : {}) };
    if (record.expiresAt !== null && record.expiresAt - REFRESH_MARGIN_MS < Date.now() && record.tokens.refresh_token) {
      this.refreshing ??= auth(this, { serverUrl: this.serverUrl, fetchFn: this.store.fetch })
        .catch(() => undefined)
        .finally(() => (this.refreshing = null));
      await this.refreshing;
      return (await this.store.tokens())?.tokens;
    }
    return record.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext) {
    const expiresAt = typeof tokens.expires_in === "number" ? Date.now() + tokens.expires_in * 1000 : null;
    const previous = await this.store.tokens();
    // A refresh answer may omit the refresh token: keep the one we had (RFC 6749 §6).
    const refresh = tokens.refresh_token ?? previous?.tokens.refresh_token;
    const dpopKey = this.callbackLeg ? this.newDpopKey : previous?.dpopKey;
    await this.store.saveTokens({
      tokens: { ...tokens, ...(refresh ? { refresh_token: refresh } : {}) },
      issuer: ctx?.issuer ?? tokens.issuer ?? null,
      expiresAt,
      discovery: this.discovery ?? previous?.discovery ?? null,
      ...(this.client ?? previous?.client ? { client: (this.client ?? previous?.client)! } : {}),
      ...(dpopKey ? { dpopKey } : {}),
    });
  }

  /**
   * RFC 9449, when the authorization server offers it: a sign-in (the callback leg) makes a new key
   * that saveTokens stores with the tokens; a live connection and its refreshes use the stored key
   * (the one of the latest sign-in: a session is kept per key, for the nonces it remembers).
   */
  async dpop(): Promise<DpopSession | undefined> {
    if (this.callbackLeg) {
      const alg = dpopAlgFor(this.discovery);
      if (!alg) return undefined;
      this.dpopSession ??= newDpopKey(alg).then(({ session, stored }) => {
        this.newDpopKey = stored;
        return session;
      });
      return this.dpopSession;
    }
    const stored = (await this.store.tokens())?.dpopKey;
    if (!stored) return undefined;
    const key = JSON.stringify(stored.publicJwk);
    if (this.dpopFor !== key) [this.dpopFor, this.dpopSession] = [key, restoreDpopSession(stored)];
    return this.dpopSession!;
  }

  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new UnauthorizedError("No authorization in progress");
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }

  /** A new sign-in discovers afresh (the server may have moved to another authorization server); a live connection reuses what its tokens came from. */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.discovery || this.flowState !== undefined) return this.discovery ?? undefined;
    return (await this.store.tokens())?.discovery ?? undefined;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") await this.store.forgetTokens();
    if (scope === "all" || scope === "verifier") this.verifier = null;
    if (scope === "all" || scope === "discovery") this.discovery = null;
  }

  /** What auth() found and registered, for the callback to finish with. */
  pending(): PendingAuthorization | null {
    if (!this.authorizationUrl || !this.verifier) return null;
    return { authorizationUrl: this.authorizationUrl.href, codeVerifier: this.verifier, discovery: this.discovery, client: this.client };
  }
}
