/**
 * The interoperability suite's helpers: servers and hosts nobody on this team wrote, started as
 * real processes on loopback. Python runs from .venv-interop (tests/interop/venv.sh makes it).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { waitFor } from "../support/console";
import { freePort, startCommand, type RunningServer } from "../support/servers";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const PYTHON = path.join(ROOT, ".venv-interop/bin/python");
const FIXTURES = path.join(ROOT, "tests/interop/fixtures");
export const GIT_SERVER = path.join(ROOT, "node_modules/@cyanheads/git-mcp-server/dist/index.js");
export const INSPECTOR_CLI = path.join(ROOT, "node_modules/@modelcontextprotocol/inspector-cli/build/cli.js");
export const MCP_REMOTE = path.join(ROOT, "node_modules/mcp-remote/dist/proxy.js");
export const FASTMCP_SERVER = path.join(FIXTURES, "fastmcp_server.py");
export const PLAYWRIGHT_MCP = path.join(ROOT, "node_modules/@playwright/mcp/cli.js");
export const CHROME_DEVTOOLS_MCP = path.join(ROOT, "node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js");
export const SUPERGATEWAY = path.join(ROOT, "node_modules/supergateway/dist/index.js");
export const MCPORTER = path.join(ROOT, "node_modules/mcporter/dist/cli.js");
/** Debian's Chromium, which the browser-driving servers run headless (as the browser tests do). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const BIND_LOOPBACK = path.join(ROOT, "tests/support/bind-loopback.cjs");

if (!fs.existsSync(PYTHON)) throw new Error(".venv-interop is missing: run `bash tests/interop/venv.sh` (scripts/test.sh does)");

export type Api = (method: string, route: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** Starts an HTTP server and adds it to the console as `name`: its id goes in `ids`, the server in `upstreams` (the file stops them). */
export async function addHttpServer(
  api: Api,
  { name, start, transport, ids, upstreams }: { name: string; start: () => Promise<RunningServer>; transport: "streamable-http" | "sse"; ids: Record<string, string>; upstreams: RunningServer[] },
): Promise<RunningServer> {
  const upstream = await start();
  upstreams.push(upstream);
  const res = await api("POST", "/api/v1/servers", { name, url: upstream.url, transport });
  if (res.status !== 201) throw new Error(`adding ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  ids[name] = res.body.server.id;
  return upstream;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `sb-interop-${prefix}-`));
}

/** A git repository with one commit and one untracked file (`notes.txt`). */
export function tempGitRepo(): string {
  const dir = tempDir("git");
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=Interop", "-c", "user.email=interop@example.com", ...args], { cwd: dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  fs.writeFileSync(path.join(dir, "README.md"), "interop\n");
  git("add", "README.md");
  git("commit", "-q", "-m", "first");
  fs.writeFileSync(path.join(dir, "notes.txt"), "untracked\n");
  return dir;
}

/** The environment git-mcp-server needs besides the scrubbed one: its base directory, quiet logs in a temp dir. */
export function gitServerEnv(repo: string): Record<string, string> {
  return { GIT_BASE_DIR: repo, LOGS_DIR: tempDir("git-logs"), MCP_LOG_LEVEL: "warn" };
}

/** tests/interop/fixtures/fastmcp_server.py over Streamable HTTP (/mcp) or legacy SSE (/sse). */
export function startFastmcp(transport: "http" | "sse"): Promise<RunningServer> {
  return startCommand(PYTHON, (port) => [path.join(FIXTURES, "fastmcp_server.py"), transport, String(port)], transport === "sse" ? "/sse" : "/mcp");
}

/** @cyanheads/git-mcp-server over Streamable HTTP on loopback. */
export async function startGitHttp(repo: string): Promise<RunningServer> {
  const port = await freePort();
  const env = { ...gitServerEnv(repo), MCP_TRANSPORT_TYPE: "http", MCP_HTTP_PORT: String(port), MCP_HTTP_HOST: "127.0.0.1" };
  return startCommand(process.execPath, () => [GIT_SERVER], "/mcp", { port, env });
}

/** A server on the TypeScript SDK 1.x (fixtures/sdk1_server.mjs): Streamable HTTP, stateless or with JSON responses. */
export function startSdk1(mode: "stateless" | "json"): Promise<RunningServer> {
  return startCommand(process.execPath, (port) => [path.join(FIXTURES, "sdk1_server.mjs"), mode, String(port)], "/mcp");
}

/** Playwright MCP in its own HTTP mode on 127.0.0.1 (`url` as it prints it: http://localhost:PORT/mcp). */
export async function startPlaywrightHttp(): Promise<RunningServer> {
  const args = (port: number) => [PLAYWRIGHT_MCP, ...playwrightArgs(), "--host", "127.0.0.1", "--port", String(port)];
  const server = await startCommand(process.execPath, args, "/mcp");
  return { ...server, url: `http://localhost:${server.port}/mcp` };
}

/** Playwright MCP's arguments for Debian's Chromium: headless, no sandbox, a profile in memory, its files in a temp dir. */
export function playwrightArgs(): string[] {
  return ["--headless", "--no-sandbox", "--isolated", "--executable-path", CHROMIUM, "--output-dir", tempDir("playwright")];
}

/** chrome-devtools-mcp's arguments for the same Chromium (and no usage statistics or CrUX lookups). */
export function chromeDevtoolsArgs(): string[] {
  return ["--headless", "--isolated", "--executablePath", CHROMIUM, "--chromeArg=--no-sandbox", "--usageStatistics=false", "--performanceCrux=false"];
}

/** supergateway exposing a stdio server (`command`, a shell line) over legacy HTTP+SSE (/sse), bound to 127.0.0.1. */
export function startSupergatewaySse(command: string, env: Record<string, string> = {}): Promise<RunningServer> {
  return startCommand(process.execPath, (port) => ["--require", BIND_LOOPBACK, SUPERGATEWAY, "--stdio", command, "--port", String(port), "--logLevel", "none"], "/sse", { env });
}

/** A page for the browser-driving servers, on 127.0.0.1: title "Interop page", a heading and a button. */
export async function servePage(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end("<!doctype html><title>Interop page</title><h1>Hello from interop</h1><button>Press me</button>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * mcporter (a CLI host: one MCP session per command) against an HTTP endpoint with a bearer token,
 * configured as its users do: a server `switchboard` in config/mcporter.json of its working directory,
 * in a temp HOME. Commands name it (`list switchboard`, `call switchboard.echo …`).
 */
export function mcporter(url: string, token: string, args: string[], home = tempDir("mcporter")) {
  fs.mkdirSync(path.join(home, "config"), { recursive: true });
  const config = { mcpServers: { switchboard: { baseUrl: url, headers: { Authorization: `Bearer ${token}` } } } };
  fs.writeFileSync(path.join(home, "config", "mcporter.json"), JSON.stringify(config));
  return run(process.execPath, [MCPORTER, ...args], { env: { PATH: process.env.PATH ?? "", HOME: home, NODE_ENV: "production" }, cwd: home, timeoutMs: 120_000 });
}

/** Runs a program to completion and returns its exit code and output. */
export function run(command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {}) {
  const child = spawn(command, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"], timeout: opts.timeoutMs ?? 60_000 });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

/** A finished call found in history (`GET /api/v1/calls`, filtered; `match` sees the summary), read whole. */
export async function recordedCall(api: Api, query: Record<string, string>, match: (summary: any) => boolean = () => true) {
  let summary: any;
  const qs = new URLSearchParams({ ...query, limit: "50" }).toString();
  await waitFor(async () => {
    summary = (await api("GET", `/api/v1/calls?${qs}`)).body.items.find((c: any) => c.status !== "pending" && match(c));
    return summary !== undefined;
  });
  return (await api("GET", `/api/v1/calls/${summary.id}`)).body.call;
}

/** A host's `echo` call in history: origin gateway, the host's `client` name, the upstream's answer. */
export async function echoInHistory(api: Api, serverId: string, message: string, client: RegExp) {
  const call = await recordedCall(api, { origin: "gateway", name: "echo" }, (c) => c.paramsPreview.includes(`"${message}"`));
  expect(call).toMatchObject({ serverId, origin: "gateway", status: "ok", result: { content: [{ type: "text", text: `Echo: ${message}` }] } });
  expect(call.client).toMatch(client);
}

/**
 * What a host was told about a bad call: a JSON-RPC error's message, or the text of a result with
 * `isError` (on the per-server endpoint in the legacy era a name the server does not list is the
 * server's to answer, and server-everything answers with such a result; docs/interop.md).
 */
export function problem(outcome: { error?: { message: string }; result?: { isError?: boolean; content?: unknown } }): string {
  if (outcome.error) return outcome.error.message;
  expect(outcome.result?.isError, JSON.stringify(outcome)).toBe(true);
  return JSON.stringify(outcome.result?.content);
}

/** A promise's outcome as `{ result }` or `{ error }`, for `problem`. */
export function outcome<T>(promise: Promise<T>): Promise<{ result?: any; error?: any }> {
  return promise.then((result) => ({ result }), (error: Error) => ({ error }));
}

/** A server row's three checks through the API: its tools are listed, a call works and is in history, a bad call answers clearly. */
export const serverRow = {
  async lists(api: Api, id: string, tools: string[]) {
    const res = await api("GET", `/api/v1/servers/${id}/tools`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(tools));
  },

  /** Calls a tool, expects `ok`, and finds the call in history with origin `user`; returns the recorded call. */
  async calls(api: Api, id: string, name: string, args: Record<string, unknown>) {
    const res = await api("POST", `/api/v1/servers/${id}/tools/call`, { name, arguments: args });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.call, JSON.stringify(res.body.call?.error)).toMatchObject({ status: "ok", isError: false, name });
    const listed = await recordedCall(api, { serverId: id, name }, (c) => c.id === res.body.call.id);
    expect(listed).toMatchObject({ serverId: id, origin: "user", method: "tools/call", status: "ok" });
    return res.body.call;
  },

  /** Arguments against the tool's schema: 422 in the documented error shape, naming the argument; nothing is sent. */
  async refusesBadArguments(api: Api, id: string, name: string, args: Record<string, unknown>, argument: string) {
    const res = await api("POST", `/api/v1/servers/${id}/tools/call`, { name, arguments: args });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error).toMatchObject({ code: "unprocessable", message: expect.stringContaining(argument) });
    expect(res.body.error.details.errors.length).toBeGreaterThan(0);
  },

  /** A call the server itself fails: recorded as an error with the server's own message. */
  async failsClearly(api: Api, id: string, name: string, args: Record<string, unknown>, message: RegExp) {
    const res = await api("POST", `/api/v1/servers/${id}/tools/call`, { name, arguments: args });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const call = res.body.call;
    expect(call.status).toBe("error");
    const text = call.isError ? JSON.stringify(call.result?.content) : call.error?.message;
    expect(text).toMatch(message);
    return call;
  },
};
