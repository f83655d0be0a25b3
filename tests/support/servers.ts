/**
 * Starts MCP servers for tests as child processes, bound to 127.0.0.1, with a scrubbed
 * environment (only PATH, HOME, PORT, NODE_ENV and what you pass), on a free port.
 *
 *   const everything = await startEverything("streamableHttp"); // url = http://127.0.0.1:PORT/mcp
 *   const legacy = await startEverything("sse");                 // url = http://127.0.0.1:PORT/sse
 *   const hostile = await startFixture("hostile-server.ts");     // url = baseUrl + "/mcp"
 *   const modern = await startFixture("modern-server.ts");
 *   const { command, args, env } = everythingStdio();          // for stdio/relay tests
 *   await everything.stop();
 *
 * Readiness is a TCP poll with a deadline. `stop()` sends SIGTERM, then SIGKILL, and resolves once
 * the process has exited; anything still running when the test process exits is killed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const EVERYTHING = path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const BIND_LOOPBACK = path.join(ROOT, "tests/support/bind-loopback.cjs");
const FIXTURES = path.join(ROOT, "tests/fixtures");
const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 3000;

export interface RunningServer {
  /** The MCP endpoint to connect to. */
  url: string;
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  port: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, SIGKILL after a grace period; resolves when the process has exited. Idempotent. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Defaults to a free port; pass the old port to restart a server "in place". */
  port?: number;
  /** Extra environment variables (added to the scrubbed environment). */
  env?: Record<string, string>;
}

const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

/**
 * A port that was free a moment ago on 127.0.0.1, picked below the kernel's ephemeral range
 * (32768+ here): a port from `listen(0)` can be taken by any outgoing connection between this
 * check and the child process binding it, which happened in CI.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

/** The only environment test servers get: server-everything's get-env tool prints all of it. */
export function scrubbedEnv(port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    PORT: String(port),
    NODE_ENV: "test",
    ...extra,
  };
}

/** `@modelcontextprotocol/server-everything` (legacy era) in streamableHttp (/mcp) or sse (/sse) mode. */
export async function startEverything(mode: "streamableHttp" | "sse", opts: StartOptions = {}): Promise<RunningServer> {
  return startProcess(["--require", BIND_LOOPBACK, EVERYTHING, mode], mode === "sse" ? "/sse" : "/mcp", opts);
}

/** How to spawn server-everything over stdio (for relay/agent tests): scrubbed env, no port. */
export function everythingStdio(): { command: string; args: string[]; env: Record<string, string> } {
  const { PORT: _port, ...env } = scrubbedEnv(0);
  return { command: process.execPath, args: [EVERYTHING, "stdio"], env: env as Record<string, string> };
}

/**
 * One of our fixture servers in tests/fixtures (TypeScript, run through tsx). `url` is
 * baseUrl + `endpoint` (default "/mcp"); the fixture reads PORT and binds 127.0.0.1 itself.
 */
export async function startFixture(
  file: string,
  opts: StartOptions & { args?: string[]; endpoint?: string } = {},
): Promise<RunningServer> {
  const script = path.isAbsolute(file) ? file : path.join(FIXTURES, file);
  return startProcess(["--import", "tsx", script, ...(opts.args ?? [])], opts.endpoint ?? "/mcp", opts);
}

/** Any other server program (a Python server, a package's bin): `args(port)` builds its command line. */
export async function startCommand(command: string, args: (port: number) => string[], endpoint: string, opts: StartOptions = {}): Promise<RunningServer> {
  const port = opts.port ?? (await freePort());
  return startProcess(args(port), endpoint, { ...opts, port }, command);
}

async function startProcess(args: string[], endpoint: string, opts: StartOptions, command = process.execPath): Promise<RunningServer> {
  const port = opts.port ?? (await freePort());
  const child = spawn(command, args, {
    cwd: ROOT,
    env: scrubbedEnv(port, opts.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  exited.then(() => live.delete(child));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
  };

  try {
    await waitForPort(port, child, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  return { url: `${baseUrl}${endpoint}`, baseUrl, port, output: () => output, stop };
}

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Server exited before listening on ${port}:\n${output()}`);
    }
    if (await canConnect(port)) return;
    if (Date.now() > deadline) throw new Error(`Server not listening on ${port} after ${READY_TIMEOUT_MS} ms:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
