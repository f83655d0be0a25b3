import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { curlSnippet, shellQuote, typescriptSnippet, type SnippetCall } from "@/lib/domains/calls";
import { envNameFor, mcpServersConfig, mcpServersEntry, type SnippetServer } from "@/lib/domains/servers";

const ROOT = path.resolve(import.meta.dirname, "../..");

const HOSTILE = [
  "it's",
  "'",
  "''\\'",
  "$(touch /tmp/pwned-by-snippet)",
  "`id`",
  "${HOME}",
  'double "quotes" and \\ backslash',
  "line one\nline two\r\n\ttab",
  "!!",
  "\u2028 separator \u2029",
  "*?[a] ~ # ; & | < >",
];

const hostileArgs = {
  message: HOSTILE.join(" | "),
  list: HOSTILE,
  // Parsed, as a stored call's arguments are: a literal `__proto__` key would set the prototype.
  nested: JSON.parse(`{ "key with 'quote'": "$(id)", "__proto__": { "polluted": true } }`) as Record<string, unknown>,
  n: 42,
};

const http: SnippetServer = {
  name: "everything's",
  kind: "http",
  url: "https://mcp.example.com/mcp?x='1'",
  transport: "auto",
  headerNames: ["X-Api-Key", "Authorization", "x-api-key"],
  stdio: null,
};

const tool: SnippetCall = { serverId: "srv_1", method: "tools/call", params: { name: "echo's `tool`", arguments: hostileArgs } };

describe("shellQuote", () => {
  it("survives bash unchanged for hostile strings", () => {
    for (const value of HOSTILE) {
      const out = execFileSync("bash", ["-c", `printf '%s' ${shellQuote(value)}`], { encoding: "utf8" });
      expect(out).toBe(value);
    }
    expect(fs.existsSync("/tmp/pwned-by-snippet")).toBe(false);
  });

  it("writes an embedded quote as '\\''", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe("curlSnippet", () => {
  it("sends the exact body with the token from the environment", () => {
    const snippet = curlSnippet(tool, "http://127.0.0.1:3000/");
    // A shell function named curl prints the arguments bash would have given the real one.
    const out = execFileSync("bash", ["-c", `curl() { printf '%s\\0' "$@"; }\n${snippet}`], {
      encoding: "utf8",
      env: { NODE_ENV: "test", PATH: process.env.PATH, SWITCHBOARD_TOKEN: "tok_123" },
    });
    const args = out.split("\0").slice(0, -1);
    expect(args.slice(0, 4)).toEqual(["-sS", "-X", "POST", "http://127.0.0.1:3000/api/v1/servers/srv_1/tools/call"]);
    expect(args).toContain("Authorization: Bearer tok_123");
    expect(args).toContain("Content-Type: application/json");
    const body = JSON.parse(args[args.indexOf("--data-raw") + 1]!);
    expect(body).toEqual({ name: "echo's `tool`", arguments: JSON.parse(JSON.stringify(hostileArgs)) });
    expect(fs.existsSync("/tmp/pwned-by-snippet")).toBe(false);
  });

  it("posts resources/read with the uri and prompts/get with its arguments", () => {
    expect(curlSnippet({ serverId: "a b", method: "resources/read", params: { uri: "file:///it's" } }, "http://h")).toContain(
      "'http://h/api/v1/servers/a%20b/resources/read'",
    );
    const prompt = curlSnippet({ serverId: "s", method: "prompts/get", params: { name: "p", arguments: { a: "1" } } }, "http://h");
    expect(prompt).toContain("/prompts/get'");
    expect(prompt).toContain('"arguments": {\n    "a": "1"\n  }');
  });
});

describe("mcpServers entries", () => {
  it("puts placeholders for header values, one per header name", () => {
    expect(mcpServersEntry(http)).toEqual({
      url: http.url,
      headers: { "X-Api-Key": "${X_API_KEY}", Authorization: "${AUTHORIZATION}", "x-api-key": "${X_API_KEY_2}" },
    });
    expect(mcpServersEntry({ ...http, transport: "sse", headerNames: [] })).toEqual({ type: "sse", url: http.url });
    expect(mcpServersEntry({ ...http, headerNames: [], session: { transport: "streamable-http" } })).toEqual({ type: "http", url: http.url });
  });

  it("gives stdio servers their command, args and env names", () => {
    const stdio: SnippetServer = { ...http, kind: "stdio", url: null, headerNames: [], stdio: { command: "npx", args: ["-y", "pkg"], cwd: "/srv", envNames: ["API_KEY"] } };
    expect(mcpServersEntry(stdio)).toEqual({ command: "npx", args: ["-y", "pkg"], cwd: "/srv", env: { API_KEY: "${API_KEY}" } });
    expect(mcpServersEntry({ ...stdio, kind: "agent", stdio: null })).toEqual({ command: "<command from the agent's config>", args: [] });
  });

  it("keeps a server named __proto__ as a key", () => {
    const text = JSON.stringify(mcpServersConfig([{ ...http, name: "__proto__", headerNames: [] }]));
    expect(JSON.parse(text).mcpServers).toHaveProperty("__proto__");
  });

  it("derives identifier-safe environment names", () => {
    expect(envNameFor("X-Api-Key")).toBe("X_API_KEY");
    expect(envNameFor("1st'header")).toBe("HEADER_1ST_HEADER");
    expect(envNameFor("---")).toBe("HEADER_");
  });
});

describe("typescriptSnippet", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-snippet-"));
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cases: [string, SnippetCall, SnippetServer][] = [
    ["streamable http with headers", tool, http],
    ["legacy sse", { serverId: "s", method: "resources/read", params: { uri: "file:///it's `x` ${y}" } }, { ...http, transport: "sse", headerNames: [] }],
    ["prompt", { serverId: "s", method: "prompts/get", params: { name: "p'\n", arguments: { a: "$(x)" } } }, { ...http, session: { transport: "sse" } }],
    ["agent stdio with env", tool, { ...http, kind: "agent", url: null, headerNames: [], stdio: { command: "node", args: ["s.js", "it's"], cwd: "/x", envNames: ["API-KEY"] } }],
    ["agent stdio unknown", tool, { ...http, kind: "agent", url: null, headerNames: [], stdio: null }],
    ["demo, through the gateway", tool, { ...http, kind: "demo", url: null, headerNames: [], stdio: null }],
  ];

  it("sends the demo server's calls through its gateway endpoint, never a command", () => {
    const text = typescriptSnippet(tool, { ...http, kind: "demo", url: null, headerNames: [], stdio: null });
    expect(text).toContain("StreamableHTTPClientTransport(new URL(process.env.SWITCHBOARD_GATEWAY_URL");
    expect(text).not.toContain("StdioClientTransport");
  });

  it("never lets a line separator end a comment early", () => {
    const server: SnippetServer = { ...http, kind: "agent", name: "x\u2028process.exit(1)\u2029", stdio: null };
    for (const [, call] of cases) expect(typescriptSnippet(call, server)).not.toMatch(/[\u2028\u2029]/);
  });

  it("type-checks against the installed SDK", () => {
    const files = cases.map(([, call, server], i) => {
      const file = path.join(dir, `snippet-${i}.mts`);
      fs.writeFileSync(file, typescriptSnippet(call, server));
      return file;
    });
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
      typeRoots: [path.join(dir, "node_modules/@types")],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(diagnostics).toEqual([]);
  }, 60_000);

  it("hands the SDK exactly the recorded arguments, headers by name", () => {
    // A stand-in SDK that prints what the snippet gave it.
    const fake = path.join(dir, "fake");
    const pkg = path.join(fake, "node_modules/@modelcontextprotocol/client");
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "@modelcontextprotocol/client", type: "module", exports: { ".": "./index.js", "./stdio": "./index.js" } }));
    fs.writeFileSync(
      path.join(pkg, "index.js"),
      `export class StreamableHTTPClientTransport { constructor(url, opts) { globalThis.seen = { url: String(url), opts }; } }
       export class Client { connect(t) { this.t = t; } async callTool(p) { return { call: p, transport: globalThis.seen }; } async close() {} }`,
    );
    const js = ts.transpileModule(typescriptSnippet(tool, http), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    fs.writeFileSync(path.join(fake, "run.mjs"), js);
    const out = execFileSync(process.execPath, ["run.mjs"], { cwd: fake, encoding: "utf8", env: { NODE_ENV: "test", PATH: process.env.PATH, X_API_KEY: "k1", AUTHORIZATION: "Bearer z" } });
    const printed = JSON.parse(out);
    expect(printed.call.name).toBe("echo's `tool`");
    expect(printed.call.arguments).toEqual(JSON.parse(JSON.stringify(hostileArgs)));
    expect(Object.keys(printed.call.arguments.nested)).toContain("__proto__");
    expect(printed.transport.url).toBe(new URL(http.url!).href);
    expect(printed.transport.opts.requestInit.headers).toEqual({ "X-Api-Key": "k1", Authorization: "Bearer z", "x-api-key": "" });
  });
});
