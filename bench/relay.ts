/**
 * Relay benchmark: `echo` on server-everything (stdio)
 *   - direct: the SDK's stdio client spawning the server itself;
 *   - relay: the SDK client on a RelayTransport → WebSocket → real agent process → stdio
 *     (the console's relay code in this process, no HTTP API, no history);
 *   - console API: POST /api/v1/servers/:id/tools/call → console → agent → stdio, every call recorded.
 * At 1 and 16 in flight. Writes the "## Relay" section of docs/benchmarks.md.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { setupOwner, startConsole, waitFor } from "../tests/support/console";
import { EVERYTHING, pairNewAgent, startAgent, waitForAgent } from "../tests/integration/relay-support";
import { machine, measure, percentile, row, table, writeSection, type Sample } from "./report";

const TOTAL = Number(process.env.BENCH_CALLS ?? 2000);
// Enough calls at 16 in flight for V8 to have optimised the hot code before the first (1 in flight) row.
const WARMUP = 1000;
const ECHO = { name: "echo", arguments: { message: "bench" } };

/** user + system CPU of a process in ms (Linux /proc). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function ok(result: unknown): void {
  if (!JSON.stringify(result).includes("bench")) throw new Error(`unexpected result ${JSON.stringify(result)}`);
}

export async function benchRelay(): Promise<void> {
  const sb = await startConsole();
  const agents: ReturnType<typeof startAgent>[] = [];
  let inproc: http.Server | undefined;
  try {
    const { api, token } = await setupOwner(sb.url);
    const server = { command: process.execPath, args: [EVERYTHING, "stdio"] };

    // Full path: a paired agent process serving "everything" to the console.
    const viaConsoleAgent = await pairNewAgent(api, sb.url, "bench");
    agents.push(startAgent(viaConsoleAgent.home, { mcpServers: { everything: server } }));
    await waitForAgent(api, viaConsoleAgent.agentId, "online");
    const items = (await api("GET", "/api/v1/servers")).body.items as { id: string; name: string }[];
    const serverId = items.find((s) => s.name === "everything")!.id;

    // Relay only: this process hosts the console's relay code (same database), a second agent connects to it.
    process.env.DATABASE_URL = `file:${sb.dbFile}`;
    const { attachRelay } = await import("../lib/relay/socket-server");
    const { RelayTransport } = await import("../lib/relay/transport");
    const { isAgentServerOnline } = await import("../lib/relay/hub");
    const q = await import("../lib/domains/agents/queries");
    const relay = attachRelay({
      publish: () => undefined,
      agents: { findByTokenHash: (tokenHash) => q.findAgentByTokenHash({ tokenHash }), announceServers: q.announceServers, touch: q.touchAgent },
    });
    inproc = http.createServer((_req, res) => res.writeHead(404).end());
    inproc.on("upgrade", (req, socket, head) => (relay.handles(req) ? relay.upgrade(req, socket, head) : socket.destroy()));
    await new Promise<void>((resolve) => inproc!.listen(0, "127.0.0.1", resolve));
    const local = await pairNewAgent(api, sb.url, "bench-local");
    const credsFile = path.join(local.home, "agent.json");
    const creds = JSON.parse(fs.readFileSync(credsFile, "utf8"));
    fs.writeFileSync(credsFile, JSON.stringify({ ...creds, consoleUrl: `http://127.0.0.1:${(inproc.address() as { port: number }).port}` }), { mode: 0o600 });
    agents.push(startAgent(local.home, { mcpServers: { "everything-local": server } }));
    await waitFor(() => isAgentServerOnline(local.agentId, "everything-local"), 20_000);
    const relayClient = new Client({ name: "bench", version: "0" });
    await relayClient.connect(new RelayTransport({ agentId: local.agentId, serverName: "everything-local" }));

    const directClient = new Client({ name: "bench", version: "0" });
    await directClient.connect(new StdioClientTransport({ command: server.command, args: server.args }));

    const direct = async () => ok(await directClient.callTool(ECHO));
    const viaRelay = async () => ok(await relayClient.callTool(ECHO));
    const viaConsole = async () => {
      const res = await fetch(`${sb.url}/api/v1/servers/${serverId}/tools/call`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(ECHO),
      });
      const body = (await res.json()) as { call?: { status: string; durationMs: number } };
      if (body.call?.status !== "ok") throw new Error(`call failed: ${JSON.stringify(body)}`);
      inConsole.push(body.call.durationMs);
    };
    let inConsole: number[] = [];
    const inConsoleP50 = new Map<number, number>();
    const cpuPerCall = new Map<number, { console: number; agent: number }>();
    const agentPid = agents[0]!.child.pid!;

    for (const f of [direct, viaRelay, viaConsole]) await measure("warm-up", 16, WARMUP, f);
    const samples: Sample[] = [];
    for (const inFlight of [1, 16]) {
      samples.push(await measure("direct SDK stdio", inFlight, TOTAL, direct));
      samples.push(await measure("relay (SDK → console relay → agent → stdio)", inFlight, TOTAL, viaRelay));
      inConsole = [];
      const [c0, a0] = [cpuMs(sb.pid()), cpuMs(agentPid)];
      samples.push(await measure("console API → relay → agent → stdio", inFlight, TOTAL, viaConsole));
      cpuPerCall.set(inFlight, { console: (cpuMs(sb.pid()) - c0) / TOTAL, agent: (cpuMs(agentPid) - a0) / TOTAL });
      inConsoleP50.set(inFlight, percentile(inConsole, 50));
    }
    let recorded = 0;
    for (let cursor: string | null | undefined = undefined; ; ) {
      const page: { items: { status: string }[]; nextCursor: string | null } = (await api("GET", `/api/v1/calls?serverId=${serverId}&limit=100${cursor ? `&cursor=${cursor}` : ""}`)).body;
      recorded += page.items.filter((c) => c.status === "ok").length;
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    await Promise.all([directClient.close(), relayClient.close()]);
    relay.close();

    const lines = [
      `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. ${TOTAL} \`echo\` calls per row after ${WARMUP} warm-up calls, server-everything over stdio.`,
      "",
      ...table(samples),
      "",
    ];
    for (const inFlight of [1, 16]) {
      const [d, r, c] = ["direct SDK stdio", "relay (", "console API"].map((l) => row(samples.find((s) => s.label.startsWith(l) && s.inFlight === inFlight)!));
      lines.push(
        `- ${inFlight} in flight: the relay adds ${(r!.p50 - d!.p50).toFixed(2)} ms at p50 (target ≤ 0.5 ms) and sustains ${r!.rate.toFixed(0)} calls/s; through the API, with history, ${c!.rate.toFixed(0)} calls/s, ${(c!.rate / d!.rate).toFixed(3)}× direct stdio (target ≥ 0.30× at 16 in flight).`,
      );
    }
    lines.push(
      `- Inside the console, the duration recorded on each API call (request handed to the SDK → answer back, i.e. lib/mcp + relay + agent + server) has a median of ${inConsoleP50.get(1)!.toFixed(2)} ms at 1 in flight and ${inConsoleP50.get(16)!.toFixed(2)} ms at 16; the rest of the API latency is HTTP, authentication and the two history writes.`,
    );
    lines.push(
      `- CPU per API call (user + system, /proc): console ${cpuPerCall.get(1)!.console.toFixed(2)} ms at 1 in flight and ${cpuPerCall.get(16)!.console.toFixed(2)} ms at 16; the agent ${cpuPerCall.get(1)!.agent.toFixed(2)} and ${cpuPerCall.get(16)!.agent.toFixed(2)} ms.`,
    );
    lines.push(`- Load average at the end: ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", ")} on ${os.cpus().length} cores.`);
    lines.push(`- Calls recorded in history for the API rows (warm-up included): ${recorded} of ${2 * TOTAL + WARMUP}.`);
    const body = lines.join("\n");
    console.log(`\n## Relay\n\n${body}\n`);
    writeSection("Relay", body);
  } finally {
    await Promise.all(agents.map((a) => a.stop("SIGTERM")));
    inproc?.close();
    await sb.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await benchRelay();
