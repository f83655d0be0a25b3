import { SdkHttpError, type Transport } from "@modelcontextprotocol/client";
import { McpError } from "./errors";
import { createHttpRecorder, type HttpRecorder } from "./http";
import { enterpriseProvider } from "./oauth-enterprise";
import { machineProvider } from "./oauth-machine";
import { ConsoleOAuthProvider } from "./oauth-provider";
import { TracedTransport, tracedPeer } from "./traced-transport";
import { createHttpTransport, parseEndpoint } from "./transports";
import type { ConnectionConfig, TransportMode } from "./types";

export type UpstreamConfig = Pick<ConnectionConfig, "url" | "headers" | "fetch" | "oauth" | "machine" | "enterprise" | "createTransport">;

/**
 * A bare transport to a server: the same HTTP transports, headers-to-own-origin rule, address
 * policy and OAuth provider for a console session (lib/mcp/connect.ts) and for a relayed host's
 * session (lib/gateway), or the given transport (agent relay, demo).
 */
export function openUpstream(config: UpstreamConfig, kind: "streamable-http" | "sse"): { transport: Transport; recorder: HttpRecorder | null } {
  if (config.createTransport) return { transport: config.createTransport(), recorder: null };
  const recorder = createHttpRecorder(config.oauth?.fetch ?? config.fetch);
  const provider = config.machine ? machineProvider(config.machine) : config.enterprise ? enterpriseProvider(config.enterprise) : config.oauth ? new ConsoleOAuthProvider(config.oauth, config.url) : undefined;
  return { transport: createHttpTransport(kind, parseEndpoint(config.url), config.headers, recorder, provider), recorder };
}

/**
 * The one fallback rule: in auto mode, Streamable HTTP refused with 400, 404 or 405 means the server
 * may speak only the legacy HTTP+SSE transport, tried once next (the spec's backwards compatibility).
 */
export function fallsBackToSse(mode: TransportMode, err: unknown): boolean {
  if (mode !== "auto") return false;
  const status = err instanceof McpError ? (err.kind === "http" ? err.status : undefined) : SdkHttpError.isInstance(err) ? err.status : undefined;
  return status === 400 || status === 404 || status === 405;
}

/**
 * A relayed session's upstream (traced: lib/mcp/traced-transport.ts): the transport its mode starts with, and the legacy HTTP+SSE one to
 * switch to when its first request (initialize) fails by `fallsBackToSse`, else null.
 */
export function openRelayedUpstream(config: UpstreamConfig, mode: TransportMode): { transport: Transport; fallback(err: unknown): Transport | null } {
  const open = (kind: "streamable-http" | "sse") => new TracedTransport(openUpstream(config, kind).transport, tracedPeer(config.createTransport ? "relay" : kind, config.url));
  const transport = open(mode === "sse" ? "sse" : "streamable-http");
  const fallback = (err: unknown) => (!config.createTransport && fallsBackToSse(mode, err) ? open("sse") : null);
  return { transport, fallback };
}
