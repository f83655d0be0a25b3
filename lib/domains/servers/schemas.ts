import { z } from "zod";
import { RootsSchema } from "@/lib/domains/interactions/schemas";
import { AuthModeSchema, ClientAuthSchema, KeyAlgSchema } from "@/lib/domains/server-oauth/schemas";
import { PROTOCOL_ERAS, TRANSPORT_MODES } from "./index";

export const TransportModeSchema = z.enum(TRANSPORT_MODES);
export const ProtocolEraSchema = z.enum(PROTOCOL_ERAS);

const HttpUrlSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "Must be an http:// or https:// URL");

const HeaderNameSchema = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "Not a valid HTTP header name");

export const CreateServerSchema = z.object({
  name: z.string().trim().min(1).max(100),
  url: HttpUrlSchema,
  transport: TransportModeSchema.default("auto"),
  /** auto: probe with server/discover, fall back to initialize; legacy: initialize only; modern: probe only. */
  protocolEra: ProtocolEraSchema.default("auto"),
  headers: z.record(HeaderNameSchema, z.string().max(8192)).default({}),
  timeoutMs: z.number().int().min(1000).max(3_600_000).default(60_000),
  /** Hard cap on a call whose timeout progress keeps resetting; absent means 10 × timeoutMs. */
  maxTotalTimeoutMs: z.number().int().min(1000).max(86_400_000).optional(),
  /** OAuth to the server: each member signs in for themselves, or one shared workspace credential. */
  authMode: AuthModeSchema.default("none"),
  /** A client registered with the server's authorization server by an admin (optional; else CIMD or DCR). */
  oauthClientId: z.string().trim().min(1).max(500).optional(),
  /** The client's secret, or for private_key_jwt its private key (PEM or JWK JSON). */
  oauthClientSecret: z.string().min(1).max(20000).optional(),
  /** Machine mode: how the client authenticates (default client_secret_basic), the key's algorithm, the scope to ask for. */
  oauthClientAuth: ClientAuthSchema.optional(),
  oauthKeyAlg: KeyAlgSchema.optional(),
  oauthScope: z.string().trim().min(1).max(1000).optional(),
  /** Enterprise-managed (SEP-990): the IdP (issuer, token endpoint unless discovered), the console's client there, and the authorization server's issuer. */
  idpIssuer: HttpUrlSchema.optional(),
  idpTokenEndpoint: HttpUrlSchema.optional(),
  idpClientId: z.string().trim().min(1).max(500).optional(),
  idpClientSecret: z.string().min(1).max(20000).optional(),
  oauthIssuer: HttpUrlSchema.optional(),
});
export type CreateServer = z.infer<typeof CreateServerSchema>;

/** Header values are write-only: a string sets it, null removes it, an absent key keeps it. */
export const UpdateServerSchema = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  url: HttpUrlSchema.optional(),
  transport: TransportModeSchema.optional(),
  protocolEra: ProtocolEraSchema.optional(),
  headers: z.record(HeaderNameSchema, z.string().max(8192).nullable()).optional(),
  timeoutMs: z.number().int().min(1000).max(3_600_000).optional(),
  /** Hard cap when progress keeps resetting the timeout; null goes back to 10 × timeoutMs. */
  maxTotalTimeoutMs: z.number().int().min(1000).max(86_400_000).nullable().optional(),
  /** What `roots/list` answers; a change sends `notifications/roots/list_changed` to the live session. */
  roots: RootsSchema.optional(),
  /** Server-initiated requests while nobody watches: decline at once, or wait up to unattendedWaitMs. */
  unattendedPolicy: z.enum(["decline", "wait"]).optional(),
  unattendedWaitMs: z.number().int().min(1000).max(3_600_000).optional(),
  /** Agent (stdio) servers: the gateway's host sessions share one server process per token (docs/gateway.md). */
  shareProcess: z.boolean().optional(),
  /** Serve only approved definitions (docs/governance.md): turning it on approves the latest snapshot unless one was approved. */
  pinDefinitions: z.boolean().optional(),
  authMode: AuthModeSchema.optional(),
  /** null removes the pre-registered client (and its secret). */
  oauthClientId: z.string().trim().min(1).max(500).nullable().optional(),
  /** Write-only: a string sets it, null removes it, absent keeps it. */
  oauthClientSecret: z.string().min(1).max(20000).nullable().optional(),
  oauthClientAuth: ClientAuthSchema.nullable().optional(),
  oauthKeyAlg: KeyAlgSchema.nullable().optional(),
  oauthScope: z.string().trim().min(1).max(1000).nullable().optional(),
  idpIssuer: HttpUrlSchema.nullable().optional(),
  idpTokenEndpoint: HttpUrlSchema.nullable().optional(),
  idpClientId: z.string().trim().min(1).max(500).nullable().optional(),
  /** Write-only, as oauthClientSecret. */
  idpClientSecret: z.string().min(1).max(20000).nullable().optional(),
  oauthIssuer: HttpUrlSchema.nullable().optional(),
});
export type UpdateServer = z.infer<typeof UpdateServerSchema>;

/** `config` is the text of an `{ "mcpServers": { … } }` file (Claude Desktop, Cursor, VS Code `servers`). */
export const ImportServersSchema = z.object({ config: z.string().min(2).max(1_000_000) });
export type ImportServers = z.infer<typeof ImportServersSchema>;

/** `GET /api/v1/servers` – `archived=1` lists the archived servers instead of the active ones. */
export const ListServersQuerySchema = z.object({ archived: z.enum(["0", "1", "true", "false"]).optional() });

/** `POST /api/v1/servers/:id/purge` – `confirm` must equal the server's current number of calls. */
export const PurgeServerSchema = z.object({ confirm: z.number().int().min(0) });
export type PurgeServer = z.infer<typeof PurgeServerSchema>;

/** Body of POST /api/v1/servers/:id/complete: `completion/complete` for a prompt or resource-template argument. */
export const CompleteSchema = z.object({
  ref: z.discriminatedUnion("type", [
    z.object({ type: z.literal("ref/prompt"), name: z.string().min(1).max(500) }),
    z.object({ type: z.literal("ref/resource"), uri: z.string().min(1).max(10_000) }),
  ]),
  argument: z.object({ name: z.string().min(1).max(500), value: z.string().max(10_000) }),
  context: z.object({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
});
export type Complete = z.infer<typeof CompleteSchema>;
