/**
 * Gateway benchmark: `echo` on server-everything from the official SDK client acting as an MCP host —
 *   - direct: the host connected to the server itself (Streamable HTTP);
 *   - gateway: the host connected to the console's /mcp/<workspace>/<server> endpoint with a
 *     gateway-scoped token, every call recorded in history (its Server-Timing stages read per reply);
 *   - peer: mcp-proxy from npm (bench/peers/mcp-proxy.ts) with its API key, which proxies stdio
 *     servers only: server-everything is its stdio child, beside a direct stdio host.
 * All rows in the same interleaved rounds at 1 and 16 in flight. Writes the "## Gateway" section of
 * docs/benchmarks.md (BENCH_DOCS elsewhere).
 */
import os from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { setupOwner, startConsole, type ConsoleHandle } from "../tests/support/console";
import { everythingStdio, startEverything } from "../tests/support/servers";
import { against, interleave, type CallPath } from "./interleave";
import { startMcpProxy, type McpProxyPeer } from "./peers/mcp-proxy";
import { machine, table, writeSection } from "./report";
import { loadAverage, StageLog } from "./stages";

const TOTAL = Number(process.env.BENCH_CALLS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
// Enough calls at 16 in flight for V8 to have optimised the hot code before the first (1 in flight) row.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000);
const ECHO = { name: "echo", arguments: { message: "bench" } };

export const DIRECT = "direct SDK → server (HTTP)";
export const GATEWAY = "SDK → console gateway → server (HTTP)";
const DIRECT_STDIO = "direct SDK → server (stdio)";

export async function host(url: string, headers: Record<string, string> = {}, fetch?: typeof globalThis.fetch): Promise<Client> {
  const client = new Client({ name: "bench-host", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, fetch }));
  return client;
}

export function echo(client: Client): () => Promise<void> {
  return async () => {
    const result = await client.callTool(ECHO);
    if (!JSON.stringify(result.content).includes("bench")) throw new Error(`unexpected result ${JSON.stringify(result)}`);
  };
}

/** server-everything exposed on the console's gateway; the endpoint and a gateway token. */
export async function exposeEverything(sb: ConsoleHandle, everythingUrl: string) {
  const { api } = await setupOwner(sb.url);
  const serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everythingUrl })).body.server.id as string;
  const { path: endpoint } = (await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true })).body.exposure;
  const token = (await api("POST", "/api/v1/tokens", { name: "bench", scopes: ["gateway"] })).body.secret as string;
  const recorded = async () => {
    let ok = 0;
    for (let cursor: string | null = null; ; ) {
      const page: { items: { status: string }[]; nextCursor: string | null } = (await api("GET", `/api/v1/calls?origin=gateway&limit=100${cursor ? `&cursor=${cursor}` : ""}`)).body;
      ok += page.items.filter((c) => c.status === "ok").length;
      if (!page.nextCursor) return ok;
      cursor = page.nextCursor;
    }
  };
  return { url: `${sb.url}${endpoint}`, headers: { authorization: `Bearer ${token}` }, recorded };
}

export async function benchGateway(): Promise<void> {
  const [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
  let proxy: McpProxyPeer | undefined;
  let missing = "";
  const clients: Client[] = [];
  try {
    const stages = new StageLog();
    const gw = await exposeEverything(sb, everything.url);
    proxy = await startMcpProxy().catch((err: Error) => ((missing = err.message.split("\n")[0]!), undefined));
    const direct = await host(everything.url);
    const viaGateway = await host(gw.url, gw.headers, stages.fetch());
    const stdio = everythingStdio();
    const directStdio = new Client({ name: "bench-host", version: "0" });
    await directStdio.connect(new StdioClientTransport(stdio));
    clients.push(direct, viaGateway, directStdio);
    const paths: CallPath[] = [
      { label: DIRECT, call: echo(direct) },
      { label: GATEWAY, call: echo(viaGateway), pid: sb.pid() },
      { label: DIRECT_STDIO, call: echo(directStdio) },
    ];
    const peerLabel = proxy && `SDK → ${proxy.name} (API key) → server (stdio child)`;
    if (proxy && peerLabel) {
      const viaProxy = await host(proxy.url, proxy.headers);
      clients.push(viaProxy);
      paths.push({ label: peerLabel, call: echo(viaProxy), pid: proxy.pid });
    }
    const loadBefore = loadAverage();
    const run = await interleave(paths, { rounds: ROUNDS, total: TOTAL, warmup: WARMUP, stages });
    const recorded = await gw.recorded();
    await Promise.allSettled(clients.map((c) => c.close()));

    const lines = [
      `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. ${TOTAL} \`echo\` calls per row in ${ROUNDS} interleaved rounds (the order reversed every other round) after ${WARMUP} warm-up calls each. Load average ${loadBefore} before, ${loadAverage()} after, on ${os.cpus().length} cores.`,
      "",
      ...table(run.samples),
      "",
    ];
    for (const inFlight of [1, 16]) {
      const d = run.at(DIRECT, inFlight);
      const g = run.at(GATEWAY, inFlight);
      const [added, ratio] = [g.p50 - d.p50, g.rate / d.rate];
      lines.push(
        `- ${inFlight} in flight: the gateway adds ${added.toFixed(2)} ms at p50${inFlight === 1 ? ` (target ≤ 1.5 ms: ${added <= 1.5 ? "met" : "**not met**"})` : ""} and keeps ${ratio.toFixed(2)}× of direct throughput${inFlight === 16 ? ` (target ≥ 0.70×: ${ratio >= 0.7 ? "met" : "**not met**"})` : ""}, at ${run.cpu.get(`${GATEWAY}@${inFlight}`)!.toFixed(2)} ms of console CPU per recorded call${inFlight === 16 ? " (target ≤ 1.0 ms)" : ""}.`,
      );
      // The host reaches both over one HTTP hop; the proxy's upstream hop is stdio, the gateway's HTTP.
      if (peerLabel) lines.push(`- ${inFlight} in flight: ${proxy!.name} (upstream over stdio) against the direct HTTP host: ${against(run, peerLabel, DIRECT, inFlight)}; against a direct stdio host: ${against(run, peerLabel, DIRECT_STDIO, inFlight).replace(/, [\d.]+ ms of its CPU per call$/, "")}.`);
    }
    if (!peerLabel) lines.push(`- Peer: mcp-proxy could not be started, so it has no row (${missing}).`);
    const made = ROUNDS * 2 * Math.round(TOTAL / ROUNDS) + WARMUP;
    lines.push(`- Calls recorded in history with origin gateway: ${recorded} of ${made} made${recorded === made ? " (every call recorded and completed)" : " — **calls missing**"}.`, "");
    lines.push(...stages.lines([1, 16].map((n) => `${GATEWAY} @${n}`)));
    const body = lines.join("\n");
    console.log(`\n## Gateway\n\n${body}\n`);
    writeSection("Gateway", body);
  } finally {
    await proxy?.close();
    await sb.stop();
    await everything.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await benchGateway();
