import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { setupOwner, startConsole } from "../tests/support/console";
import { startEverything } from "../tests/support/servers";
import fs from "node:fs";
import { machine, measure, row, table, writeSection, type Sample } from "./report";

/** CPU time (user + system) a process has used so far, in ms, from /proc. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (100 Hz)
}

const TOTAL = Number(process.env.BENCH_CALLS ?? 2000);
const WARMUP = 200;

/** echo on server-everything over Streamable HTTP: directly with the SDK vs through the console API. */
export async function benchConsole(): Promise<void> {
  const everything = await startEverything("streamableHttp");
  const sb = await startConsole();
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

    await measure("warm-up", 4, WARMUP, direct);
    await measure("warm-up", 4, WARMUP, viaConsole);
    const samples: Sample[] = [];
    const cpuPerCall = new Map<number, number>();
    for (const inFlight of [1, 16]) {
      samples.push(await measure("direct SDK", inFlight, TOTAL, direct));
      const before = cpuMs(sb.pid());
      samples.push(await measure("console API", inFlight, TOTAL, viaConsole));
      cpuPerCall.set(inFlight, (cpuMs(sb.pid()) - before) / TOTAL);
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
        `- ${inFlight} in flight: the console adds ${(c.p50 - d.p50).toFixed(2)} ms at p50 (target ≤ 1 ms) and keeps ${((c.rate / d.rate) * 100).toFixed(0)}% of direct throughput (target ≥ 80%).`,
      );
    }
    for (const [inFlight, ms] of cpuPerCall) lines.push(`- Console CPU per recorded call at ${inFlight} in flight: ${ms.toFixed(2)} ms (target ≤ 1.0 ms).`);
    lines.push(`- Calls recorded: ${Number(rows.n)} rows, ${Number(rows.ok)} ok, for ${made} calls made (${recorded ? "every call recorded and completed" : "MISMATCH"}).`);
    writeSection("Console API vs direct SDK (Streamable HTTP)", lines.join("\n"));
    console.log(lines.join("\n"));
  } finally {
    await sb.stop();
    await everything.stop();
  }
}
