import { describe, expect, it } from "vitest";
import { ConfigError, config, configFrom, resetConfig, VARIABLES } from "@/lib/core/config";
import { stubEnv, unstubAllEnvs } from "../support/config";

const problems = (env: Record<string, string>) => {
  try {
    configFrom(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error("configFrom accepted it");
};

describe("lib/core/config", () => {
  it("applies every default when nothing is set, and blank counts as unset", () => {
    const defaults = configFrom({});
    expect(defaults).toMatchObject({ port: 3000, host: "127.0.0.1", networkPolicy: null, allowedNetworks: [], databaseUrl: null, dbPool: 10, trustProxy: false, directApi: true, monitors: true });
    expect(defaults).toMatchObject({ maxServers: 500, maxCalls: 5_000_000, handshakeTimeoutMs: 10_000, retentionIntervalMs: 3_600_000, mailFrom: "Switchboard <switchboard@localhost>", samlSessionSeconds: 28_800 });
    for (const [field, variable] of Object.entries(VARIABLES)) expect(defaults[field as keyof typeof defaults], field).toEqual(variable.fallback);
    expect(configFrom({ PORT: "", SWITCHBOARD_MAX_SERVERS: "  ", SWITCHBOARD_URL: "" })).toEqual(defaults);
    expect(Object.isFrozen(defaults)).toBe(true);
  });

  it("reads good values", () => {
    const c = configFrom({
      PORT: "4000",
      SWITCHBOARD_NETWORK_POLICY: " Public ",
      SWITCHBOARD_ALLOWED_NETWORKS: " 10.0.0.0/8, MCP.Internal ,",
      SWITCHBOARD_TRUST_PROXY: "1",
      SWITCHBOARD_DIRECT_API: "0",
      SWITCHBOARD_MONITORS: "off",
      SWITCHBOARD_URL: "https://sb.example.com/base/",
      SWITCHBOARD_TRUSTED_ORIGINS: "https://a.example/, https://b.example",
      SWITCHBOARD_RETENTION_INTERVAL_MS: "0",
      DATABASE_URL: "postgresql://u:p@127.0.0.1:5432/db",
      SWITCHBOARD_SSO_ISSUER: "https://idp.example/realms/x//",
      SWITCHBOARD_SSO_CLIENT_ID: "console",
    });
    expect(c).toMatchObject({ port: 4000, networkPolicy: "public", allowedNetworks: ["10.0.0.0/8", "mcp.internal"], trustProxy: true, directApi: false, monitors: false });
    expect(c).toMatchObject({ url: "https://sb.example.com/base/", trustedOrigins: ["https://a.example", "https://b.example"], retentionIntervalMs: 0, ssoIssuer: "https://idp.example/realms/x" });
  });

  it("keeps today's clamps and documented leniency", () => {
    expect(configFrom({ SWITCHBOARD_HANDSHAKE_TIMEOUT_MS: "900000" }).handshakeTimeoutMs).toBe(300_000);
    // README: any other value counts as `none`.
    expect(configFrom({ SWITCHBOARD_WORKSPACE_CREATION: "everyone" }).workspaceCreation).toBe("none");
    expect(configFrom({ SWITCHBOARD_WORKSPACE_CREATION: " Admins " }).workspaceCreation).toBe("admins");
  });

  it("names each bad variable and why, all of them in one error", () => {
    expect(problems({ PORT: "eighty" })).toEqual(['PORT: must be a whole number from 1 to 65535 (got "eighty")']);
    expect(problems({ PORT: "70000" })).toEqual(['PORT: must be a whole number from 1 to 65535 (got "70000")']);
    expect(problems({ SWITCHBOARD_MAX_SERVERS: "0" })).toEqual(['SWITCHBOARD_MAX_SERVERS: must be a whole number of at least 1 (got "0")']);
    expect(problems({ SWITCHBOARD_HEARTBEAT_MS: "1.5" })).toEqual(['SWITCHBOARD_HEARTBEAT_MS: must be a whole number of at least 1 (got "1.5")']);
    expect(problems({ SWITCHBOARD_DRIFT_CHECK_MS: "-1" })).toEqual(['SWITCHBOARD_DRIFT_CHECK_MS: must be a whole number of at least 0 (got "-1")']);
    expect(problems({ SWITCHBOARD_TRUST_PROXY: "true" })).toEqual(['SWITCHBOARD_TRUST_PROXY: must be 1 or 0 (got "true")']);
    expect(problems({ SWITCHBOARD_NETWORK_POLICY: "open" })).toEqual(['SWITCHBOARD_NETWORK_POLICY: must be "public" or "private" (got "open")']);
    expect(problems({ SWITCHBOARD_MONITORS: "no" })).toEqual(['SWITCHBOARD_MONITORS: must be "on" or "off" (got "no")']);
    expect(problems({ DATABASE_URL: "mysql://x" })).toEqual(["DATABASE_URL: must be file:<path> (SQLite) or postgresql://… (PostgreSQL)"]);
    expect(problems({ SWITCHBOARD_CLIENT_METADATA_URL: "http://sb.example/oauth/client-metadata.json" })).toEqual(["SWITCHBOARD_CLIENT_METADATA_URL: must be a https URL"]);
    // A URL's value is not echoed: it may carry a password.
    expect(problems({ SWITCHBOARD_SMTP_URL: "user:secret@mail" })).toEqual(["SWITCHBOARD_SMTP_URL: must be a smtp or smtps URL"]);
    expect(problems({ SWITCHBOARD_SANDBOX_ORIGIN: "sandbox example" })).toEqual(["SWITCHBOARD_SANDBOX_ORIGIN: must be an absolute URL"]);
    const all = problems({ PORT: "x", SWITCHBOARD_URL: "sb.example.com", SWITCHBOARD_MAX_CALLS: "lots" });
    expect(all.map((p) => p.split(":")[0])).toEqual(["PORT", "SWITCHBOARD_URL", "SWITCHBOARD_MAX_CALLS"]);
  });

  it("refuses half an identity provider", () => {
    expect(problems({ SWITCHBOARD_SSO_ISSUER: "https://idp.example" })).toEqual(["SWITCHBOARD_SSO_CLIENT_ID: required with SWITCHBOARD_SSO_ISSUER"]);
    expect(problems({ SWITCHBOARD_SAML_ENTRY_POINT: "https://idp.example/sso" })).toEqual([
      "SWITCHBOARD_SAML_ISSUER: required with SWITCHBOARD_SAML_ENTRY_POINT",
      "SWITCHBOARD_SAML_CERT: required with SWITCHBOARD_SAML_ENTRY_POINT",
    ]);
  });

  it("says it in one message a person can read, without a stack", () => {
    const err = (() => {
      try {
        configFrom({ PORT: "x", SWITCHBOARD_TRUST_PROXY: "yes" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toBe('Invalid configuration (2 variables):\n  PORT: must be a whole number from 1 to 65535 (got "x")\n  SWITCHBOARD_TRUST_PROXY: must be 1 or 0 (got "yes")');
    expect(err?.stack).toBe(`ConfigError: ${err?.message}`);
  });

  it("parses process.env once; a test that changes it reads it again", () => {
    stubEnv("SWITCHBOARD_MAX_SERVERS", "7");
    expect(config().maxServers).toBe(7);
    process.env.SWITCHBOARD_MAX_SERVERS = "8";
    expect(config()).toBe(config());
    expect(config().maxServers).toBe(7);
    resetConfig();
    expect(config().maxServers).toBe(8);
    unstubAllEnvs();
    expect(config().maxServers).toBe(500);
  });
});
