import type { ServerStatus } from "@/lib/core/events";
import type { Root } from "@/lib/domains/interactions";
import type { AuthMode, ClientAuth } from "@/lib/domains/server-oauth";
import type { Complete } from "./schemas";
export type { CreateServer, UpdateServer, ImportServers, PurgeServer, Complete } from "./schemas";

export const TRANSPORT_MODES = ["auto", "streamable-http", "sse"] as const;
export type TransportMode = (typeof TRANSPORT_MODES)[number];

/** Which protocol era to speak: probe then fall back to initialize, initialize only, or probe only (lib/mcp ProtocolEra). */
export const PROTOCOL_ERAS = ["auto", "legacy", "modern"] as const;
export type ProtocolEra = (typeof PROTOCOL_ERAS)[number];
/** How a session's era was settled (lib/mcp Negotiation). */
export type Negotiation = "probe" | "initialize" | "fallback" | "remembered";

/** "demo": the built-in demo server, served by the console itself (no URL, no process). */
export type ServerKind = "http" | "agent" | "stdio" | "demo";
export type Era = "legacy" | "modern";
export type { ServerStatus } from "@/lib/core/events";

export interface SessionInfo {
  id: string;
  status: "connecting" | "connected" | "closed" | "failed";
  transport: string | null;
  protocolVersion: string | null;
  era: Era | null;
  /** How the era was settled; null for sessions older than the field. */
  negotiation: Negotiation | null;
  /** Why the probe was given up on, when negotiation is "fallback". */
  negotiationNote: string | null;
  serverInfo: { name: string; version: string; title?: string; [key: string]: unknown } | null;
  capabilities: Record<string, unknown> | null;
  instructions: string | null;
  error: string | null;
  /** Why it failed, where a list must tell without the text: "sign_in_required", "step_up_required", else null. */
  errorKind: "sign_in_required" | "step_up_required" | null;
  createdAt: string;
  closedAt: string | null;
  /** From the last ping (manual or periodic): null before the first. */
  health: "healthy" | "unhealthy" | null;
  healthError: string | null;
  lastPingAt: string | null;
  lastPingMs: number | null;
  /** The log level asked of the server in this session, if any. */
  logLevel: string | null;
}

export interface ServerDto {
  id: string;
  name: string;
  kind: ServerKind;
  url: string | null;
  transport: TransportMode;
  protocolEra: ProtocolEra;
  /** Names of the custom headers that are set; values never leave the server. */
  headerNames: string[];
  timeoutMs: number;
  /** Hard cap when progress keeps resetting the timeout; null: 10 × timeoutMs. */
  maxTotalTimeoutMs: number | null;
  agentId: string | null;
  stdio: { command: string; args: string[]; cwd?: string; envNames: string[] } | null;
  status: ServerStatus;
  session: SessionInfo | null;
  /** What `roots/list` answers (file:// URIs with optional names). */
  roots: Root[];
  unattendedPolicy: "decline" | "wait";
  unattendedWaitMs: number;
  /** Agent (stdio) servers: the gateway's host sessions share one server process per token. */
  shareProcess: boolean;
  /** Serve only approved definitions: items changed since `approvedSnapshotId` are withheld from hosts. */
  pinDefinitions: boolean;
  approvedSnapshotId: string | null;
  authMode: AuthMode;
  /** The pre-registered OAuth client id, if any (its secret is write-only). */
  oauthClientId: string | null;
  /** Machine mode: the token endpoint authentication, key algorithm and scope (the secret or key is write-only). */
  oauthClientAuth: ClientAuth | null;
  oauthKeyAlg: string | null;
  oauthScope: string | null;
  /** Enterprise-managed (SEP-990): the IdP and its client id (the IdP client secret is write-only), and the authorization server's issuer. */
  idpIssuer: string | null;
  idpTokenEndpoint: string | null;
  idpClientId: string | null;
  oauthIssuer: string | null;
  /** Set when the server was archived (deleted): its history stays readable, nothing talks to it. */
  archivedAt: string | null;
  /** Who archived it (user id), or null. */
  archivedBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An archived server in `GET /api/v1/servers?archived=1`: `callCount` is what a purge deletes. */
export interface ArchivedServerDto extends ServerDto {
  archivedAt: string;
  callCount: number;
}

export interface ImportResult {
  created: ServerDto[];
  skipped: { name: string; reason: string }[];
}

/** The server's suggestions for one argument. */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

export const CAPABILITY_KINDS = ["tools", "resources", "resource-templates", "prompts"] as const;
export type CapabilityKind = (typeof CAPABILITY_KINDS)[number];

export const serverKeys = {
  all: () => ["servers"] as const,
  archived: () => ["servers", { archived: true }] as const,
  detail: (id: string) => ["servers", id] as const,
  capability: (id: string, kind: CapabilityKind) => ["servers", id, kind] as const,
  completion: (id: string, input: Complete) => ["servers", id, "complete", input] as const,
};
export { envNameFor, headerEnvNames, mcpServersConfig, mcpServersEntry, UNKNOWN_COMMAND, type McpServersEntry, type SnippetServer } from "./config-file";
