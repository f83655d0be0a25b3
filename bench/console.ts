import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { setupOwner, startConsole } from "../tests/support/console";
import { startEverything } from "../tests/support/servers";
import fs from "node:fs";
import { startInspectorPeer, type InspectorPeer } from "./peers/inspector";
import { machine, measure, row, table, writeSection, type Sample } from "./report";

/** CPU time (user + system) a process has used so far, in ms, from /proc. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (100 Hz)
}

const TOTAL = Number(process.env.BENCH_CALLS ?? 2000);
// Enough calls at 16 in flight for V8 to have optimised the hot code before the first (1 in flight) row.
const WARMUP = 1000;

/**
 * echo on server-everything over Streamable HTTP: directly with the SDK, through the console API,
 * and through the official MCP Inspector's backend (bench/peers/inspector.ts) as a peer.
 */
export async function benchConsole(): Promise<void> {
  const everything = await startEverything("streamableHttp");
  const sb = await startConsole();
  let peer: InspectorPeer | undefined;
  let peerMissing = "";
  try {
    const { api, token } = await setupOwner(sb.url);
    const server = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server;
    await api("POST", `/api/v1/servers/${server.id}/connect`);

    const client = new Client({ name: "bench", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(everything.url)));
    const direct = async () => {
      await client.callTool({ name: "echo", arguments: { message: "bench" } });
    };
    const viaConsole = async () => {
      const res = await fetch(`${sb.url}/api/v1/servers/${server.id}/tools/call`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "echo", arguments: { message: "bench" } }),
      });
      const body = (await res.json()) as { call?: { status: string } };
      if (body.call?.status !== "ok") throw new Error(`call failed: ${JSON.stringify(body)}`);
    };

    peer = await startInspectorPeer({ mcpUrl: everything.url }).catch((err: Error) => {
      peerMissing = err.message.split("\n")[0]!;
      return undefined;
    });

    // The paths measured in each round, one after the other; `pid`: the process whose CPU counts.
    const paths: { label: string; call: () => Promise<void>; pid?: number }[] = [
      { label: "direct SDK", call: direct },
      { label: "console API", call: viaConsole, pid: sb.pid() },
      ...(peer ? [{ label: peer.label, call: peer.call, pid: peer.pid }] : []),
    ];
    for (const p of paths) await measure("warm-up", 16, WARMUP, p.call);
    const samples: Sample[] = [];
    const cpuPerCall = new Map<string, number>(); // "label@inFlight" → ms
    for (const inFlight of [1, 16]) {
      for (const p of paths) {
        const before = p.pid ? cpuMs(p.pid) : 0;
        samples.push(await measure(p.label, inFlight, TOTAL, p.call));
        if (p.pid) cpuPerCall.set(`${p.label}@${inFlight}`, (cpuMs(p.pid) - before) / TOTAL);
      }
    }
    // Every call the bench made is a row, completed: none lost, none left pending.
    const made = WARMUP + 2 * TOTAL;
    const rows = (await sb.db.get<{ n: number | bigint; ok: number | bigint }>(
      `SELECT COUNT(*) AS n, SUM(CASE WHEN status = 'ok' THEN 1 ELSE 0 END) AS ok FROM "call" WHERE server_id = ?`,
      server.id,
    ))!;
    const recorded = Number(rows.n) === made && Number(rows.ok) === made;
    await client.close();

    const lines = [
      `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. ${TOTAL} calls per row after ${WARMUP} warm-up calls.`,
      "",
      ...table(samples),
      "",
    ];
    for (const inFlight of [1, 16]) {
      const d = row(samples.find((s) => s.label === "direct SDK" && s.inFlight === inFlight)!);
      const c = row(samples.find((s) => s.label === "console API" && s.inFlight === inFlight)!);
      lines.push(
        `- ${inFlight} in flight: the console adds ${(c.p50 - d.p50).toFixed(2)} ms at p50 (target ≤ 1 ms) and keeps ${((c.rate / d.rate) * 100).toFixed(0)}% of direct throughput (target ≥ 75% at 16 in flight).`,
      );
    }
    for (const inFlight of [1, 16]) lines.push(`- Console CPU per recorded call at ${inFlight} in flight: ${cpuPerCall.get(`console API@${inFlight}`)!.toFixed(2)} ms (target ≤ 1.0 ms).`);
    lines.push(...peerLines(samples, cpuPerCall, peer?.label, peerMissing));
    lines.push(`- Calls recorded: ${Number(rows.n)} rows, ${Number(rows.ok)} ok, for ${made} calls made (${recorded ? "every call recorded and completed" : "MISMATCH"}).`);
    writeSection("Console API vs direct SDK (Streamable HTTP)", lines.join("\n"));
    console.log(lines.join("\n"));
  } finally {
    await peer?.close();
    await sb.stop();
    await everything.stop();
  }
}

/** The Inspector peer's lines: its figures beside the console's, or why it has no row. */
function peerLines(samples: Sample[], cpuPerCall: Map<string, number>, label: string | undefined, missing: string): string[] {
  if (!label) return [`- Peer: the official MCP Inspector backend could not be started, so it has no row (${missing}).`];
  const at = (l: string, inFlight: number) => row(samples.find((s) => s.label === l && s.inFlight === inFlight)!);
  return [1, 16].map((inFlight) => {
    const [d, c, p] = [at("direct SDK", inFlight), at("console API", inFlight), at(label, inFlight)];
    return `- Peer at ${inFlight} in flight: the ${label} (\`POST /api/mcp/send\`, result on its event stream) adds ${(p.p50 - d.p50).toFixed(2)} ms at p50 and keeps ${(p.rate / d.rate).toFixed(2)}× of direct throughput (console: ${(c.rate / d.rate).toFixed(2)}×), at ${cpuPerCall.get(`${label}@${inFlight}`)!.toFixed(2)} ms of its CPU per call.`;
  });
}
