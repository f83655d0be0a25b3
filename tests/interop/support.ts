/**
 * The interoperability suite's helpers: servers and hosts nobody on this team wrote, started as
 * real processes on loopback. Python runs from .venv-interop (tests/interop/venv.sh makes it).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
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

if (!fs.existsSync(PYTHON)) throw new Error(".venv-interop is missing: run `bash tests/interop/venv.sh` (scripts/test.sh does)");

export type Api = (method: string, route: string, body?: unknown) => Promise<{ status: number; body: any }>;

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
