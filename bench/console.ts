import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { setupOwner, startConsole, type ConsoleHandle } from "../tests/support/console";
import { startEverything } from "../tests/support/servers";
import { startBareProxy, type BareProxy } from "./peers/bare-proxy";
import { startInspectorPeer, type InspectorPeer } from "./peers/inspector";
import { baselineLines, pooled, ROUNDS, startBaseline, type Baseline } from "./baseline";
import { machine, measure, row, table, writeSection, type Sample } from "./report";
import { cpuMs, loadAverage, StageLog } from "./stages";

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
  let bare: BareProxy | undefined;
  let peerMissing = "";
  let base: Baseline | undefined;
  try {
    base = await startBaseline();
    const { token, server } = await addEverything(sb.url, everything.url);

    const client = new Client({ name: "bench", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(everything.url)));
    const direct = async () => {
      await client.callTool({ name: "echo", arguments: { message: "bench" } });
    };
    const stages = new StageLog();
    const viaConsole = echoVia(sb.url, token, server.id, stages);
    const baseServer = base ? await addEverything(base.sb.url, everything.url) : undefined;

    peer = await startInspectorPeer({ mcpUrl: everything.url }).catch((err: Error) => {
      peerMissing = err.message.split("\n")[0]!;
      return undefined;
    });

    bare = await startBareProxy({ mcpUrl: everything.url });

    // The paths measured in each round, one after the other; `pid`: the process whose CPU counts.
    const paths: { label: string; call: () => Promise<void>; pid?: number }[] = [
      { label: "direct SDK", call: direct },
      { label: "console API", call: viaConsole, pid: sb.pid() },
      ...(base && baseServer ? [{ label: base.label, call: echoVia(base.sb.url, baseServer.token, baseServer.server.id), pid: base.sb.pid() }] : []),
      ...(peer ? [{ label: peer.label, call: peer.call, pid: peer.pid }] : []),
      { label: bare.label, call: bare.call, pid: bare.pid },
    ];
    for (const p of paths) await measure("warm-up", 16, WARMUP, p.call);
    const loadBefore = loadAverage();
    // With a baseline, rounds of the same rows; every other round takes the paths in reverse order.
    const rounds: Sample[][] = [];
    const cpuPerCall = new Map<string, number>(); // "label@inFlight" (and "…#round") → ms
    for (let r = 0; r < ROUNDS; r++) {
      rounds.push([]);
      for (const inFlight of [1, 16]) {
        for (const p of r % 2 ? [...paths].reverse() : paths) {
          const before = p.pid ? cpuMs(p.pid) : 0;
          stages.at(`${p.label} @${inFlight}`);
          rounds[r]!.push(await measure(p.label, inFlight, TOTAL, p.call));
          if (p.pid) cpuPerCall.set(`${p.label}@${inFlight}#${r}`, (cpuMs(p.pid) - before) / TOTAL);
        }
      }
    }
    const samples = [1, 16].flatMap((inFlight) => paths.map((p) => pooled(rounds.flat(), p.label, inFlight)));
    for (const p of paths) for (const inFlight of [1, 16]) if (p.pid) cpuPerCall.set(`${p.label}@${inFlight}`, rounds.reduce((t, _, r) => t + cpuPerCall.get(`${p.label}@${inFlight}#${r}`)!, 0) / ROUNDS);
    // Every call the bench made is a row, completed: none lost, none left pending.
    const made = WARMUP + ROUNDS * 2 * TOTAL;
    const rows = await recordedRows(sb.db, server.id);
    const recorded = Number(rows.n) === made && Number(rows.ok) === made;
    const baseRows = base && baseServer ? await recordedRows(base.sb.db, baseServer.server.id) : undefined;
    await client.close();

    const lines = [
      `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. ${TOTAL} calls per row after ${WARMUP} warm-up calls${ROUNDS > 1 ? `, ${ROUNDS} interleaved rounds pooled` : ""}. Load average ${loadBefore} before the timed rows, ${loadAverage()} after.`,
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
    lines.push(...floorLines(samples, cpuPerCall, bare.label));
    lines.push("", ...stages.lines([1, 16].map((n) => `console API @${n}`)), "");
    lines.push(`- Calls recorded: ${Number(rows.n)} rows, ${Number(rows.ok)} ok, for ${made} calls made (${recorded ? "every call recorded and completed" : "MISMATCH"}).`);
    if (base && baseRows) {
      lines.push(`- Baseline calls recorded: ${Number(baseRows.n)} rows, ${Number(baseRows.ok)} ok, for ${made} calls made.`, "");
      lines.push(...baselineLines(rounds, cpuPerCall, base.label, "console API", peer?.label));
    } else writeSection("Console API vs direct SDK (Streamable HTTP)", lines.join("\n"));
    console.log(lines.join("\n"));
  } finally {
    await bare?.close();
    await peer?.close();
    await base?.sb.stop();
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

/** The bare proxy's lines: this machine's floor for two extra hops, and the console above it. */
function floorLines(samples: Sample[], cpuPerCall: Map<string, number>, label: string): string[] {
  const at = (l: string, inFlight: number) => row(samples.find((s) => s.label === l && s.inFlight === inFlight)!);
  return [1, 16].map((inFlight) => {
    const [d, c, b] = [at("direct SDK", inFlight), at("console API", inFlight), at(label, inFlight)];
    return `- Floor at ${inFlight} in flight: a ${label} adds ${(b.p50 - d.p50).toFixed(2)} ms at p50 and keeps ${(b.rate / d.rate).toFixed(2)}× of direct throughput, at ${cpuPerCall.get(`${label}@${inFlight}`)!.toFixed(2)} ms of its CPU per call; the console adds ${(c.p50 - b.p50).toFixed(2)} ms at p50 above it.`;
  });
}

/** A set-up owner with server-everything added and connected on the console at `url`. */
export async function addEverything(url: string, everythingUrl: string): Promise<{ token: string; server: { id: string } }> {
  const { api, token } = await setupOwner(url);
  const server = (await api("POST", "/api/v1/servers", { name: "everything", url: everythingUrl })).body.server;
  await api("POST", `/api/v1/servers/${server.id}/connect`);
  return { token, server };
}

/** One echo call through the console API at `url`. */
export function echoVia(url: string, token: string, serverId: string, stages?: StageLog): () => Promise<void> {
  return async () => {
    const res = await fetch(`${url}/api/v1/servers/${serverId}/tools/call`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "echo", arguments: { message: "bench" } }),
    });
    const body = (await res.json()) as { call?: { status: string } };
    stages?.add(res.headers.get("server-timing"));
    if (body.call?.status !== "ok") throw new Error(`call failed: ${JSON.stringify(body)}`);
  };
}

async function recordedRows(db: ConsoleHandle["db"], serverId: string): Promise<{ n: number | bigint; ok: number | bigint }> {
  return (await db.get<{ n: number | bigint; ok: number | bigint }>(
    `SELECT COUNT(*) AS n, SUM(CASE WHEN status = 'ok' THEN 1 ELSE 0 END) AS ok FROM "call" WHERE server_id = ?`,
    serverId,
  ))!;
}
