import { headerEnvNames, UNKNOWN_COMMAND, type SnippetServer } from "@/lib/domains/servers";
import type { CallMethod } from "./index";

/** What a snippet needs of a call: where it went and what it sent. */
export interface SnippetCall {
  serverId: string;
  method: CallMethod;
  params: unknown;
}

const AGENT_CONFIG = "~/.config/switchboard/servers.json";

/** Quotes a string for POSIX shells: single quotes, an embedded `'` written as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The body our API takes for the call's method (`POST /api/v1/servers/:id/<method>`). */
function apiBodyFor(call: Pick<SnippetCall, "method" | "params">): Record<string, unknown> {
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
  if (server.kind === "demo") {
    return {
      imports: ['import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";'],
      lines: [
        `// ${js(server.name)} runs inside the console: reach it through its gateway endpoint (the server's`,
        "// Gateway tab: /mcp/<workspace>/<server>) with an API token that has the gateway scope.",
        'const transport = new StreamableHTTPClientTransport(new URL(process.env.SWITCHBOARD_GATEWAY_URL ?? ""), {',
        '  requestInit: { headers: { Authorization: `Bearer ${process.env.SWITCHBOARD_TOKEN ?? ""}` } },',
        "});",
      ],
    };
  }
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
