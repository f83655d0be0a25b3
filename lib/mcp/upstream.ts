import type { Transport } from "@modelcontextprotocol/client";
import { createHttpRecorder, type HttpRecorder } from "./http";
import { machineProvider } from "./oauth-machine";
import { ConsoleOAuthProvider } from "./oauth-provider";
import { createHttpTransport, parseEndpoint } from "./transports";
import type { ConnectionConfig } from "./types";

export type UpstreamConfig = Pick<ConnectionConfig, "url" | "headers" | "fetch" | "oauth" | "machine" | "createTransport">;

/**
 * A bare transport to a server with no SDK client on top, for relaying another host's session
 * message by message (lib/gateway): the same HTTP transports, headers-to-own-origin rule, address
 * policy and OAuth provider a console session uses, or the given transport (agent relay, demo).
 */
export function openUpstream(config: UpstreamConfig, kind: "streamable-http" | "sse"): { transport: Transport; recorder: HttpRecorder | null } {
  if (config.createTransport) return { transport: config.createTransport(), recorder: null };
  const recorder = createHttpRecorder(config.oauth?.fetch ?? config.fetch);
  const provider = config.machine ? machineProvider(config.machine) : config.oauth ? new ConsoleOAuthProvider(config.oauth, config.url) : undefined;
  return { transport: createHttpTransport(kind, parseEndpoint(config.url), config.headers, recorder, provider), recorder };
}
