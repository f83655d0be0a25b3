import type { ServerDto, SessionInfo } from "./index";

// A server as the files other MCP hosts read (`mcpServers`), and the names its secrets take there.

/** What a snippet needs of a server; never header values, only their names. */
export type SnippetServer = Pick<ServerDto, "name" | "kind" | "url" | "transport" | "headerNames" | "stdio"> & {
  session?: Pick<SessionInfo, "transport"> | null;
};

/** The entry of an `mcpServers` file: a remote server (url, headers) or a local one (command, args). */
export type McpServersEntry =
  | { type?: "http" | "sse"; url: string; headers?: Record<string, string> }
  | { command: string; args: string[]; cwd?: string; env?: Record<string, string> };

/** Where an agent server's command comes from: the agent's own config, never the console. */
export const UNKNOWN_COMMAND = "<command from the agent's config>";

/** The environment variable a header's value is read from: "X-Api-Key" → "X_API_KEY". */
export function envNameFor(headerName: string): string {
  const name = headerName.toUpperCase().replace(/[^A-Z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return !name || /^\d/.test(name) ? `HEADER_${name}` : name;
}

/** Header name → environment variable, distinct even when two names map to the same variable. */
export function headerEnvNames(headerNames: string[]): [string, string][] {
  const used = new Set<string>();
  return headerNames.map((header) => {
    const base = envNameFor(header);
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
    used.add(name);
    return [header, name];
  });
}

/** The server as an `mcpServers` entry; header values and env values become `${VAR}` placeholders. */
export function mcpServersEntry(server: SnippetServer): McpServersEntry {
  if (server.kind === "http") {
    const headers = Object.fromEntries(headerEnvNames(server.headerNames).map(([h, env]) => [h, `\${${env}}`]));
    const explicit = server.transport === "auto" ? server.session?.transport : server.transport;
    const type = explicit === "sse" ? "sse" : explicit === "streamable-http" ? "http" : undefined;
    return { ...(type ? { type } : {}), url: server.url ?? "", ...(server.headerNames.length ? { headers } : {}) };
  }
  const stdio = server.stdio;
  const env = Object.fromEntries((stdio?.envNames ?? []).map((n) => [n, `\${${n}}`]));
  return {
    command: stdio?.command ?? UNKNOWN_COMMAND,
    args: stdio?.args ?? [],
    ...(stdio?.cwd ? { cwd: stdio.cwd } : {}),
    ...(Object.keys(env).length ? { env } : {}),
  };
}

/** `{ "mcpServers": { name: entry } }` for these servers, as Claude Desktop, Cursor and our import read it. */
export function mcpServersConfig(servers: SnippetServer[]): { mcpServers: Record<string, McpServersEntry> } {
  const mcpServers: Record<string, McpServersEntry> = {};
  // The demo server runs inside this console: no other host can start or reach it.
  for (const server of servers.filter((s) => s.kind !== "demo")) Object.defineProperty(mcpServers, server.name, { value: mcpServersEntry(server), enumerable: true, writable: true, configurable: true });
  return { mcpServers };
}
