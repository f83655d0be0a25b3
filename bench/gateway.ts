/**
 * Gateway benchmark: `echo` on server-everything over Streamable HTTP, from the official SDK
 * client acting as an MCP host —
 *   - direct: the host connected to the server itself;
 *   - gateway: the host connected to the console's /mcp/<workspace>/<server> endpoint with a
 *     gateway-scoped token, every call recorded in history.
 * Rows alternate (direct, gateway, direct, gateway) at 1 and 16 in flight, so the ratio is taken
 * on the same machine state. Writes the "## Gateway" section of docs/benchmarks.md.
 */
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { setupOwner, startConsole } from "../tests/support/console";
import { startEverything } from "../tests/support/servers";
import { machine, measure, row, table, writeSection, type Sample } from "./report";

const TOTAL = Number(process.env.BENCH_CALLS ?? 2000);
// Enough calls at 16 in flight for V8 to have optimised the hot code before the first (1 in flight) row.
const WARMUP = 1000;
const ECHO = { name: "echo", arguments: { message: "bench" } };

async function host(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "bench-host", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

export async function benchGateway(): Promise<void> {
  const [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
  try {
    const { api } = await setupOwner(sb.url);
    const serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id as string;
    const { path: endpoint } = (await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true })).body.exposure;
    const token = (await api("POST", "/api/v1/tokens", { name: "bench", scopes: ["gateway"] })).body.secret as string;
    const direct = await host(everything.url);
    const viaGateway = await host(`${sb.url}${endpoint}`, { authorization: `Bearer ${token}` });
    const call = (client: Client) => async () => {
      const result = await client.callTool(ECHO);
      if (!JSON.stringify(result.content).includes("bench")) throw new Error(`unexpected result ${JSON.stringify(result)}`);
    };
    await measure("warm-up", 16, WARMUP, call(direct));
    await measure("warm-up", 16, WARMUP, call(viaGateway));
    const samples: Sample[] = [];
    for (const inFlight of [1, 16]) {
      for (let round = 0; round < 2; round++) {
        samples.push(await measure("direct SDK → server", inFlight, TOTAL / 2, call(direct)));
        samples.push(await measure("SDK → console gateway → server", inFlight, TOTAL / 2, call(viaGateway)));
      }
    }
    let recorded = 0;
    for (let cursor: string | null = null; ; ) {
      const page: { items: { status: string }[]; nextCursor: string | null } = (await api("GET", `/api/v1/calls?origin=gateway&limit=100${cursor ? `&cursor=${cursor}` : ""}`)).body;
      recorded += page.items.filter((c) => c.status === "ok").length;
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    await Promise.allSettled([direct.close(), viaGateway.close()]);

    const merged = (label: string, inFlight: number) => {
      const parts = samples.filter((s) => s.label === label && s.inFlight === inFlight);
      return { label, inFlight, latencies: parts.flatMap((s) => s.latencies), wallMs: parts.reduce((sum, s) => sum + s.wallMs, 0) };
    };
    const rows = [1, 16].flatMap((n) => [merged("direct SDK → server", n), merged("SDK → console gateway → server", n)]);
    const lines = [
      `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. ${TOTAL} \`echo\` calls per row (two interleaved halves) after ${WARMUP} warm-up calls each, server-everything over Streamable HTTP.`,
      "",
      ...table(rows),
      "",
    ];
    for (const inFlight of [1, 16]) {
      const d = row(merged("direct SDK → server", inFlight));
      const g = row(merged("SDK → console gateway → server", inFlight));
      const added = g.p50 - d.p50;
      const ratio = g.rate / d.rate;
      lines.push(
        `- ${inFlight} in flight: the gateway adds ${added.toFixed(2)} ms at p50 (target ≤ 1 ms: ${added <= 1 ? "met" : "**not met**"}) and keeps ${ratio.toFixed(2)}× of direct throughput (target ≥ 0.7×: ${ratio >= 0.7 ? "met" : "**not met**"}).`,
      );
    }
    const made = 2 * TOTAL + WARMUP;
    lines.push(`- Calls recorded in history with origin gateway: ${recorded} of ${made} made${recorded === made ? " (every call recorded and completed)" : " — **calls missing**"}.`);
    const body = lines.join("\n");
    console.log(`\n## Gateway\n\n${body}\n`);
    writeSection("Gateway", body);
  } finally {
    await sb.stop();
    await everything.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await benchGateway();
