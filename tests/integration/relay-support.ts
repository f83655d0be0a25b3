/**
 * Helpers for relay tests: pair and run the built agent (agent/dist/cli.js) as a real process
 * with its own SWITCHBOARD_AGENT_HOME and a scrubbed environment.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitFor } from "../support/console";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const CLI = path.join(ROOT, "agent/dist/cli.js");
export const EVERYTHING = path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const FILESYSTEM = path.join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
export const MEMORY = path.join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");
export const CL_FIXTURE = path.join(ROOT, "tests/fixtures/content-length-server.mjs");

if (!fs.existsSync(CLI)) throw new Error("agent/dist/cli.js is missing: run `node agent/build.mjs` (scripts/build.sh does)");

/** The environment the agent runs with: enough to work, plus a marker that must never reach a server. */
export function agentEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { NODE_ENV: "production", PATH: process.env.PATH ?? "", HOME: home, SWITCHBOARD_AGENT_HOME: home, RELAY_LEAK_MARKER: "must-not-leak", ...extra };
}

export function newAgentHome(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "sb-agent-"));
}

/** Runs a CLI command to completion (asynchronously: the test process may be serving it). */
export function runCli(home: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: agentEnv(home, env), stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

export interface RunningAgent {
  child: ChildProcess;
  output(): string;
  exited(): Promise<number | null>;
  /** SIGTERM (clean stop) or another signal; resolves when the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `switchboard-agent start` with a config written to the agent's home. */
export function startAgent(home: string, config: unknown, opts: { grace?: number; env?: Record<string, string> } = {}): RunningAgent {
  const file = path.join(home, "servers.json");
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  const args = [CLI, "start", "--config", file, "--verbose", ...(opts.grace !== undefined ? ["--grace", String(opts.grace)] : [])];
  const child = spawn(process.execPath, args, { env: agentEnv(home, opts.env), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited: () => exit,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exit;
    },
  };
}

/** The pids of a process's direct children, with their command lines. */
export function childrenOf(pid: number): { pid: number; cmd: string }[] {
  const res = spawnSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" });
  return res.stdout
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => ({ pid: Number(l.split(/\s+/)[0]), cmd: l.replace(/^\d+\s+/, "") }));
}

type Api = (method: string, route: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** Creates a pairing code in the console and pairs a fresh agent home with it. */
export async function pairNewAgent(api: Api, consoleUrl: string, name: string) {
  const pairing = await api("POST", "/api/v1/agents/pairings", { name });
  if (pairing.status !== 201) throw new Error(`pairing failed: ${JSON.stringify(pairing.body)}`);
  const home = newAgentHome();
  const res = await runCli(home, ["pair", pairing.body.pairing.code, "--console", consoleUrl]);
  if (res.code !== 0) throw new Error(`pair failed: ${res.stdout}${res.stderr}`);
  const creds = JSON.parse(fs.readFileSync(path.join(home, "agent.json"), "utf8"));
  return { home, code: pairing.body.pairing.code as string, pairing: pairing.body.pairing, agentId: creds.agentId as string, token: creds.token as string };
}

/** Waits until the console lists the agent with the given status. */
export async function waitForAgent(api: Api, agentId: string, status: "online" | "offline" | "revoked", timeoutMs = 20_000, describe?: () => string) {
  let agent: any;
  await waitFor(async () => {
    agent = (await api("GET", `/api/v1/agents/${agentId}`)).body?.agent;
    return agent?.status === status;
  }, timeoutMs, describe);
  return agent;
}

/** The server id of an agent server by name. */
export async function serverId(api: Api, name: string): Promise<string> {
  const items = (await api("GET", "/api/v1/servers")).body.items as { id: string; name: string }[];
  const found = items.find((s) => s.name === name);
  if (!found) throw new Error(`no server named ${name}`);
  return found.id;
}

/** Calls a tool through the API and returns the recorded call. */
export async function callTool(api: Api, id: string, name: string, args: Record<string, unknown> = {}) {
  const res = await api("POST", `/api/v1/servers/${id}/tools/call`, { name, arguments: args });
  return res;
}
