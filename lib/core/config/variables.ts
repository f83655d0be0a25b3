import { flag, list, oneOf, text, trimmed, url, wholeNumber, type Read } from "./read";

/**
 * One environment variable: its name, how its text is read, its value when unset or blank, and
 * the default as README's variable tables state it (when not simply the fallback in backticks;
 * tests/unit/config-docs.test.ts holds the two together).
 */
export interface Variable<T> {
  readonly env: string;
  readonly read: Read<T>;
  readonly fallback: T;
  readonly readme?: string;
}

const v = <T, F = T>(env: string, read: Read<T>, fallback: F, readme?: string): Variable<T | F> => ({ env, read, fallback, readme });

const HTTP = ["http:", "https:"] as const;
const MIB = 1024 * 1024;

/** Who may create workspaces; README documents the leniency: any other value counts as `none`. */
const creationRule: Read<"anyone" | "admins" | "none"> = (t) => {
  const value = t.trim().toLowerCase();
  return value === "anyone" || value === "admins" ? value : "none";
};

/** A SQLite file or a PostgreSQL server: anything else would fail later, in Prisma, obscurely. */
const databaseUrl: Read<string> = (t) => {
  if (!/^(file:|postgres(ql)?:\/\/)/i.test(t.trim())) throw new Error("must be file:<path> (SQLite) or postgresql://… (PostgreSQL)");
  return t.trim();
};

/** A link to a trace in the operator's tracing tool, with `{traceId}` where the id goes. */
const traceLinkTemplate: Read<string> = (t) => {
  if (!t.includes("{traceId}")) throw new Error("must contain {traceId} where the trace id goes");
  url(HTTP)(t.replaceAll("{traceId}", "0"));
  return t.trim();
};

/** Every variable the console reads, by the field of `config()` that holds it. */
export const VARIABLES = {
  // Listening and the network
  port: v("PORT", wholeNumber({ max: 65_535 }), 3000),
  host: v("HOST", trimmed, "127.0.0.1"),
  networkPolicy: v("SWITCHBOARD_NETWORK_POLICY", oneOf(["public", "private"] as const), null, "`private` when `HOST` is loopback, else `public`"),
  // Entries that do not parse are dropped with a warning (lib/core/net), not refused: tests/integration/log-reader-gone.test.ts.
  allowedNetworks: v("SWITCHBOARD_ALLOWED_NETWORKS", list((e) => e.toLowerCase()), [] as readonly string[], "–"),
  workspaceCreation: v("SWITCHBOARD_WORKSPACE_CREATION", creationRule, null, "`anyone` when the network policy is `private`, else `admins`"),
  handshakeTimeoutMs: v("SWITCHBOARD_HANDSHAKE_TIMEOUT_MS", wholeNumber({ clamp: 300_000 }), 10_000),
  trustProxy: v("SWITCHBOARD_TRUST_PROXY", flag, false, "–"),
  trustedOrigins: v("SWITCHBOARD_TRUSTED_ORIGINS", list((e) => e.replace(/\/+$/, "")), [] as readonly string[], "–"),
  url: v("SWITCHBOARD_URL", url(HTTP), null, "the request's origin"),
  secureCookies: v("SWITCHBOARD_SECURE_COOKIES", flag, false, "`1` when `SWITCHBOARD_URL` is https, else `0`"),
  directApi: v("SWITCHBOARD_DIRECT_API", flag, true, "`1`"),
  // GET /metrics (docs/operations.md, "Metrics"): neither set, the endpoint does not exist.
  metricsToken: v("SWITCHBOARD_METRICS_TOKEN", text, null, "– (no token)"),
  metricsLoopback: v("SWITCHBOARD_METRICS_LOOPBACK", flag, false, "`0`"),
  // Traces (docs/operations.md, "Traces"): the OpenTelemetry variables; the exporter reads the rest of OTEL_EXPORTER_OTLP_* itself.
  otlpEndpoint: v("OTEL_EXPORTER_OTLP_ENDPOINT", url(HTTP), null, "– (no traces)"),
  otlpTracesEndpoint: v("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", url(HTTP), null, "–"),
  otelServiceName: v("OTEL_SERVICE_NAME", trimmed, "switchboard"),
  otelSdkDisabled: v("OTEL_SDK_DISABLED", (t) => t.trim().toLowerCase() === "true", false, "`false`"),
  otelAttributeLimit: v("OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT", wholeNumber({ min: 1 }), 4096),
  tracePayloads: v("SWITCHBOARD_TRACE_PAYLOADS", flag, false, "`0`"),
  traceLink: v("SWITCHBOARD_TRACE_LINK", traceLinkTemplate, null, "–"),
  sourceMaps: v("SWITCHBOARD_SOURCE_MAPS", oneOf(["own", "all"] as const), "own"),
  // The database and secrets
  databaseUrl: v("DATABASE_URL", databaseUrl, null, "`file:./data/switchboard.db`"),
  dbPool: v("SWITCHBOARD_DB_POOL", wholeNumber(), 10),
  dbLockTimeoutMs: v("SWITCHBOARD_DB_LOCK_TIMEOUT_MS", wholeNumber({ min: 0 }), 5000),
  secret: v("SWITCHBOARD_SECRET", text, null, "generated into `./data/secret.key` (mode 0600)"),
  betterAuthSecret: v("BETTER_AUTH_SECRET", text, null, "derived from the secret key"),
  setupCode: v("SWITCHBOARD_SETUP_CODE", trimmed, null, "random per start"),
  // MCP Apps, OAuth, mail
  sandboxPort: v("SWITCHBOARD_SANDBOX_PORT", wholeNumber({ max: 65_535 }), null, "`PORT + 1`"),
  sandboxOrigin: v("SWITCHBOARD_SANDBOX_ORIGIN", url(HTTP), null, "–"),
  clientMetadataUrl: v("SWITCHBOARD_CLIENT_METADATA_URL", url(["https:"]), null, "–"),
  smtpUrl: v("SWITCHBOARD_SMTP_URL", url(["smtp:", "smtps:"]), null, "– (no mail)"),
  mailFrom: v("SWITCHBOARD_MAIL_FROM", text, "Switchboard <switchboard@localhost>"),
  // Limits and quotas
  // At most the relay's frame cap (16 MiB), applied where it is known: lib/api/route.ts.
  maxCallBodyBytes: v("SWITCHBOARD_MAX_CALL_BODY_BYTES", wholeNumber(), MIB, "`1048576`"),
  maxServers: v("SWITCHBOARD_MAX_SERVERS", wholeNumber(), 500),
  maxCalls: v("SWITCHBOARD_MAX_CALLS", wholeNumber(), 5_000_000),
  maxMonitors: v("SWITCHBOARD_MAX_MONITORS", wholeNumber(), 100),
  maxAgentServers: v("SWITCHBOARD_MAX_AGENT_SERVERS", wholeNumber(), 100),
  loadTestMaxUsers: v("SWITCHBOARD_LOAD_TEST_MAX_USERS", wholeNumber(), 64),
  signinMaxFailures: v("SWITCHBOARD_SIGNIN_MAX_FAILURES", wholeNumber(), 5),
  signinMaxFailuresPerAddress: v("SWITCHBOARD_SIGNIN_MAX_FAILURES_PER_ADDRESS", wholeNumber(), 30),
  signinMaxFailuresPerAccount: v("SWITCHBOARD_SIGNIN_MAX_FAILURES_PER_ACCOUNT", wholeNumber(), 100),
  signinBlockSeconds: v("SWITCHBOARD_SIGNIN_BLOCK_SECONDS", wholeNumber(), 60),
  // Instances
  instanceUrl: v("SWITCHBOARD_INSTANCE_URL", url(HTTP), null, "`http://HOST:PORT`"),
  instanceId: v("SWITCHBOARD_INSTANCE_ID", trimmed, null, "random per start"),
  heartbeatMs: v("SWITCHBOARD_HEARTBEAT_MS", wholeNumber(), 5000),
  shutdownGraceMs: v("SWITCHBOARD_SHUTDOWN_GRACE_MS", wholeNumber({ min: 0 }), 10_000),
  idleGcMs: v("SWITCHBOARD_IDLE_GC_MS", wholeNumber({ min: 0 }), 10_000),
  // The gateway, the relay, live sessions
  gatewayIdleMs: v("SWITCHBOARD_GATEWAY_IDLE_MS", wholeNumber(), 600_000),
  gatewayInputMs: v("SWITCHBOARD_GATEWAY_INPUT_MS", wholeNumber(), null, "the server's request timeout"),
  gatewayReachMs: v("SWITCHBOARD_GATEWAY_REACH_MS", wholeNumber(), 10_000),
  gatewayRecheckMs: v("SWITCHBOARD_GATEWAY_RECHECK_MS", wholeNumber(), 3000),
  // null: the relay protocol's own defaults (lib/relay/protocol.ts).
  relayMaxBytes: v("SWITCHBOARD_RELAY_MAX_BYTES", wholeNumber(), null, "`16777216`"),
  relayHeartbeatMs: v("SWITCHBOARD_RELAY_HEARTBEAT_MS", wholeNumber(), null, "`15000`"),
  relayMaxUnreadBytes: v("SWITCHBOARD_RELAY_MAX_UNREAD_BYTES", wholeNumber(), null, "twice `SWITCHBOARD_RELAY_MAX_BYTES`"),
  healthIntervalMs: v("SWITCHBOARD_HEALTH_INTERVAL_MS", wholeNumber({ min: 0 }), 30_000),
  healthTimeoutMs: v("SWITCHBOARD_HEALTH_TIMEOUT_MS", wholeNumber(), 10_000),
  // Background work
  monitorPollMs: v("SWITCHBOARD_MONITOR_POLL_MS", wholeNumber(), 1000),
  monitors: v("SWITCHBOARD_MONITORS", (t) => oneOf(["on", "off"] as const)(t) === "on", true, "on"),
  driftCheckMs: v("SWITCHBOARD_DRIFT_CHECK_MS", wholeNumber({ min: 0 }), 86_400_000),
  retentionIntervalMs: v("SWITCHBOARD_RETENTION_INTERVAL_MS", wholeNumber({ min: 0 }), 3_600_000),
  jobPollMs: v("SWITCHBOARD_JOB_POLL_MS", wholeNumber(), 5000),
  alertDeliveryMs: v("SWITCHBOARD_ALERT_DELIVERY_MS", wholeNumber({ min: 0 }), 60_000),
  auditSinkMs: v("SWITCHBOARD_AUDIT_SINK_MS", wholeNumber({ min: 0 }), 2000),
  auditSinkBackoffMs: v("SWITCHBOARD_AUDIT_SINK_BACKOFF_MS", wholeNumber(), 1000),
  searchIndexMs: v("SWITCHBOARD_SEARCH_INDEX_MS", wholeNumber({ min: 0 }), 1000),
  searchIndexThread: v("SWITCHBOARD_SEARCH_INDEX_THREAD", flag, false, "`0`"),
  searchTailScan: v("SWITCHBOARD_SEARCH_TAIL_SCAN", wholeNumber({ min: 0 }), 20_000),
  // Single sign-on (README, "Sign-in")
  ssoIssuer: v("SWITCHBOARD_SSO_ISSUER", (t) => url(HTTP)(t).replace(/\/+$/, ""), null, "– (no SSO)"),
  ssoClientId: v("SWITCHBOARD_SSO_CLIENT_ID", text, null, "–"),
  ssoClientSecret: v("SWITCHBOARD_SSO_CLIENT_SECRET", text, null, "–"),
  ssoName: v("SWITCHBOARD_SSO_NAME", text, "SSO"),
  ssoDomain: v("SWITCHBOARD_SSO_DOMAIN", trimmed, "", "–"),
  ssoWorkspace: v("SWITCHBOARD_SSO_WORKSPACE", trimmed, null, "the oldest workspace"),
  ssoRecheckSeconds: v("SWITCHBOARD_SSO_RECHECK_SECONDS", wholeNumber(), 300),
  ssoGroupsClaim: v("SWITCHBOARD_SSO_GROUPS_CLAIM", trimmed, "groups"),
  dnsServers: v("SWITCHBOARD_DNS_SERVERS", list(), [] as readonly string[], "the system's resolvers"),
  samlEntryPoint: v("SWITCHBOARD_SAML_ENTRY_POINT", url(HTTP), null, "– (no SAML)"),
  samlIssuer: v("SWITCHBOARD_SAML_ISSUER", text, null, "–"),
  samlCert: v("SWITCHBOARD_SAML_CERT", trimmed, null, "–"),
  samlName: v("SWITCHBOARD_SAML_NAME", text, "SAML"),
  samlSpEntityId: v("SWITCHBOARD_SAML_SP_ENTITY_ID", text, "switchboard"),
  samlSessionSeconds: v("SWITCHBOARD_SAML_SESSION_SECONDS", wholeNumber(), 8 * 3600, "`28800` (8 h)"),
};

/** The default as README states it. */
export function documentedDefault(variable: Variable<unknown>): string {
  return variable.readme ?? `\`${String(variable.fallback)}\``;
}
