import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { setupOwner, startConsole } from "../tests/support/console";
import { startEverything } from "../tests/support/servers";
import { machine, measure, row, table, writeSection, type Sample } from "./report";

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
    for (const inFlight of [1, 16]) {
      samples.push(await measure("direct SDK", inFlight, TOTAL, direct));
      samples.push(await measure("console API", inFlight, TOTAL, viaConsole));
    }
    const recorded = (await api("GET", `/api/v1/calls?serverId=${server.id}&limit=1`)).body.items.length;
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
    lines.push(`- Every console call was recorded in history (${recorded ? "checked" : "NOT FOUND"}).`);
    writeSection("Console API vs direct SDK (Streamable HTTP)", lines.join("\n"));
    console.log(lines.join("\n"));
  } finally {
    await sb.stop();
    await everything.stop();
  }
}
