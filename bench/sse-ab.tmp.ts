import { Readable } from "node:stream";
import { STATUS_CODES } from "node:http";
import { request, Agent } from "undici";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createOutboundFetch } from "../lib/net/dispatcher";
import { startEverything } from "../tests/support/servers";

const ev = await startEverything("streamableHttp");
const agent = new Agent();
async function oldFetch(url: string | URL, init: RequestInit): Promise<Response> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, n) => (headers[n] = v));
  const res = await request(String(url), { method: (init.method ?? "GET") as "POST", headers, body: (init.body as string) ?? null, signal: init.signal ?? undefined, dispatcher: agent });
  const h = new Headers();
  for (const [n, v] of Object.entries(res.headers)) if (v !== undefined) for (const one of Array.isArray(v) ? v : [v]) h.append(n, one);
  const meta = { status: res.statusCode, statusText: STATUS_CODES[res.statusCode] ?? "", headers: h };
  if (res.statusCode === 202 || res.headers["content-length"] === "0") { await res.body.dump(); return new Response(null, meta); }
  if (/json/.test(h.get("content-type") ?? "")) return new Response(await res.body.text(), meta);
  return new Response(Readable.toWeb(res.body) as ReadableStream<Uint8Array>, meta);
}
const newFetch = createOutboundFetch(async () => ({ mode: "private", allowed: [] }));
async function client(fetchFn: typeof fetch) {
  const c = new Client({ name: "ab", version: "1" });
  await c.connect(new StreamableHTTPClientTransport(new URL(ev.url), { fetch: fetchFn as typeof fetch }));
  return c;
}
const a = await client(oldFetch as typeof fetch);
const b = await client(newFetch as typeof fetch);
async function run(c: Client, n: number, inflight: number) {
  const cpu = process.cpuUsage(); const t = performance.now();
  let i = 0;
  await Promise.all(Array.from({ length: inflight }, async () => { while (i++ < n) await c.callTool({ name: "echo", arguments: { message: "bench" } }); }));
  const u = process.cpuUsage(cpu);
  return { cpuMsPerCall: (u.user + u.system) / 1000 / n, rate: n / ((performance.now() - t) / 1000) };
}
await run(a, 500, 16); await run(b, 500, 16);
const res: Record<string, number[]> = { old: [], new: [] };
for (let r = 0; r < 6; r++) { res.old.push((await run(a, 1000, 16)).cpuMsPerCall); res.new.push((await run(b, 1000, 16)).cpuMsPerCall); }
const med = (x: number[]) => x.sort((p, q) => p - q)[x.length >> 1];
console.log("client CPU ms/call old", res.old.map((x) => x.toFixed(3)).join(" "), "median", med(res.old).toFixed(3));
console.log("client CPU ms/call new", res.new.map((x) => x.toFixed(3)).join(" "), "median", med(res.new).toFixed(3));
await a.close(); await b.close(); await ev.stop(); process.exit(0);
