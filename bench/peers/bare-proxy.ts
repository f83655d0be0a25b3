import { spawn } from "node:child_process";
import path from "node:path";

/**
 * A bare pass-through (bench/peers/bare-proxy-server.mjs) as a peer: the same two extra loopback
 * hops as the console's API, with none of its work. What it adds over direct is this machine's
 * floor for any API in front of an MCP server; what the console adds above it is its own.
 */
export interface BareProxy {
  label: string;
  call(): Promise<void>;
  pid: number;
  close(): Promise<void>;
}

export async function startBareProxy({ mcpUrl }: { mcpUrl: string }): Promise<BareProxy> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "bare-proxy-server.mjs")], {
    env: { ...process.env, MCP_URL: mcpUrl, NODE_OPTIONS: "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`bare proxy exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}/`;
  return {
    label: "bare proxy (SDK client, no auth, no history)",
    pid: child.pid!,
    async call() {
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "echo", arguments: { message: "bench" } }) });
      if (!res.ok) throw new Error(`bare proxy: ${res.status} ${await res.text()}`);
      await res.json();
    },
    async close() {
      child.kill();
    },
  };
}
