import type { ServerDto, SessionInfo } from "@/lib/servers";
import type { CallMethod } from "./index";

/** What a snippet needs of a call: where it went and what it sent. */
export interface SnippetCall {
  serverId: string;
  method: CallMethod;
  params: unknown;
}

/** What a snippet needs of a server; never header values, only their names. */
export type SnippetServer = Pick<ServerDto, "name" | "kind" | "url" | "transport" | "headerNames" | "stdio"> & {
  session?: Pick<SessionInfo, "transport"> | null;
};

/** The entry of an `mcpServers` file: a remote server (url, headers) or a local one (command, args). */
export type McpServersEntry =
  | { type?: "http" | "sse"; url: string; headers?: Record<string, string> }
  | { command: string; args: string[]; cwd?: string; env?: Record<string, string> };

const AGENT_CONFIG = "~/.config/switchboard/servers.json";
const UNKNOWN_COMMAND = "<command from the agent's config>";

/** Quotes a string for POSIX shells: single quotes, an embedded `'` written as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The environment variable a header's value is read from: "X-Api-Key" → "X_API_KEY". */
export function envNameFor(headerName: string): string {
  const name = headerName.toUpperCase().replace(/[^A-Z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return !name || /^\d/.test(name) ? `HEADER_${name}` : name;
}

/** Header name → environment variable, distinct even when two names map to the same variable. */
function headerEnvNames(headerNames: string[]): [string, string][] {
  const used = new Set<string>();
  return headerNames.map((header) => {
    const base = envNameFor(header);
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
    used.add(name);
    return [header, name];
  });
}

/** The body our API takes for the call's method (`POST /api/v1/servers/:id/<method>`). */
export function apiBodyFor(call: Pick<SnippetCall, "method" | "params">): Record<string, unknown> {
  const params = (call.params ?? {}) as Record<string, unknown>;
  if (call.method === "resources/read") return { uri: params.uri };
  return { name: params.name, arguments: params.arguments ?? {} };
}

/** `curl` against the console API; the token stays `$SWITCHBOARD_TOKEN`, expanded by the shell. */
export function curlSnippet(call: SnippetCall, origin: string): string {
  const url = `${origin.replace(/\/+$/, "")}/api/v1/servers/${encodeURIComponent(call.serverId)}/${call.method}`;
  return [
    `curl -sS -X POST ${shellQuote(url)} \\`,
    `  -H "Authorization: Bearer $SWITCHBOARD_TOKEN" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  --data-raw ${shellQuote(JSON.stringify(apiBodyFor(call), null, 2))}`,
  ].join("\n");
}

/** A string literal that stays one token anywhere, even in a `//` comment (U+2028 ends a line there). */
function js(value: string): string {
  return JSON.stringify(value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** A JavaScript expression for a JSON value; `JSON.parse` when a literal would mean something else. */
function literal(value: unknown, indent: string): string {
  const json = JSON.stringify(value ?? {}, null, 2).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
  // In an object literal `"__proto__": …` sets the prototype instead of making a key.
  if (json.includes('"__proto__":')) return `JSON.parse(${js(JSON.stringify(value))})`;
  return json.replace(/\n/g, `\n${indent}`);
}

function requestLines(call: SnippetCall): string[] {
  const body = apiBodyFor(call);
  const i = "    ";
  if (call.method === "resources/read") return [`  const result = await client.readResource({ uri: ${js(String(body.uri ?? ""))} });`];
  const fn = call.method === "prompts/get" ? "getPrompt" : "callTool";
  return [`  const result = await client.${fn}({`, `${i}name: ${js(String(body.name ?? ""))},`, `${i}arguments: ${literal(body.arguments, i)},`, "  });"];
}

function transportOf(server: SnippetServer): "sse" | "streamable-http" {
  if (server.transport === "sse") return "sse";
  if (server.transport === "auto" && server.session?.transport === "sse") return "sse";
  return "streamable-http";
}

function transportLines(server: SnippetServer): { imports: string[]; lines: string[] } {
  if (server.kind !== "http") {
    const stdio = server.stdio;
    const env = stdio?.envNames ?? [];
    const options = [
      `  command: ${js(stdio?.command ?? UNKNOWN_COMMAND)},`,
      `  args: [${(stdio?.args ?? []).map(js).join(", ")}],`,
      ...(stdio?.cwd ? [`  cwd: ${js(stdio.cwd)},`] : []),
      ...(env.length ? ["  env: {", "    ...getDefaultEnvironment(),", ...env.map((n) => `    ${js(n)}: process.env[${js(n)}] ?? "",`), "  },"] : []),
    ];
    return {
      imports: [
        'import { Client } from "@modelcontextprotocol/client";',
        `import { ${env.length ? "getDefaultEnvironment, " : ""}StdioClientTransport } from "@modelcontextprotocol/client/stdio";`,
      ],
      lines: [
        `// ${js(server.name)} runs under a Switchboard agent: its command lives in the agent's`,
        `// config (${AGENT_CONFIG} on the agent's machine).${stdio ? " This is the entry as imported." : " Copy the entry from there."}`,
        "const transport = new StdioClientTransport({",
        ...options,
        "});",
      ],
    };
  }
  const cls = transportOf(server) === "sse" ? "SSEClientTransport" : "StreamableHTTPClientTransport";
  const headers = headerEnvNames(server.headerNames);
  const url = `new URL(${js(server.url ?? "")})`;
  const construct = headers.length
    ? [
        `// Header values are not copied: set ${headers.map(([, env]) => env).join(", ")} in the environment.`,
        `const transport = new ${cls}(${url}, {`,
        "  requestInit: {",
        "    headers: {",
        ...headers.map(([h, env]) => `      ${js(h)}: process.env.${env} ?? "",`),
        "    },",
        "  },",
        "});",
      ]
    : [`const transport = new ${cls}(${url});`];
  return { imports: [`import { Client, ${cls} } from "@modelcontextprotocol/client";`], lines: construct };
}

/** A TypeScript program with the official MCP SDK (v2) that makes the same request to the server directly. */
export function typescriptSnippet(call: SnippetCall, server: SnippetServer): string {
  const { imports, lines } = transportLines(server);
  return [
    "// npm install @modelcontextprotocol/client; run as an ES module (for example `npx tsx snippet.mts`).",
    ...imports,
    "",
    ...lines,
    'const client = new Client({ name: "switchboard-snippet", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });',
    "await client.connect(transport);",
    "try {",
    ...requestLines(call),
    "  console.log(JSON.stringify(result, null, 2));",
    "} finally {",
    "  await client.close();",
    "}",
    "",
  ].join("\n");
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
  for (const server of servers) Object.defineProperty(mcpServers, server.name, { value: mcpServersEntry(server), enumerable: true, writable: true, configurable: true });
  return { mcpServers };
}
