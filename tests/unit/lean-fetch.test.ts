import { getEventListeners } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundFetch } from "@/lib/net/dispatcher";

// A loopback server answering like an MCP server does: JSON, an event stream, or 202 with no body.
let server: http.Server;
let base = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (req.url === "/json") return res.writeHead(200, { "content-type": "application/json", "x-echo": String(req.headers["x-sent"]) }).end(body);
      if (req.url === "/sse") return res.writeHead(200, { "content-type": "text/event-stream" }).end(`event: message\ndata: ${body}\n\n`);
      if (req.url === "/redirect") return res.writeHead(307, { location: "/json" }).end();
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const outbound = createOutboundFetch(async () => ({ mode: "private", allowed: [] }));
const init = (signal: AbortSignal): RequestInit => ({ method: "POST", body: '{"jsonrpc":"2.0","id":1,"method":"ping"}', headers: { "x-sent": "yes" }, signal, redirect: "manual" });

describe("outbound fetch for MCP transports", () => {
  it("answers JSON, event streams and empty 202s as fetch would", async () => {
    const signal = new AbortController().signal;
    const json = await outbound(`${base}/json`, init(signal));
    expect([json.status, json.headers.get("x-echo"), await json.json()]).toEqual([200, "yes", { jsonrpc: "2.0", id: 1, method: "ping" }]);
    expect(json).toBeInstanceOf(Response);
    const sse = await outbound(`${base}/sse`, init(signal));
    expect(await sse.text()).toBe('event: message\ndata: {"jsonrpc":"2.0","id":1,"method":"ping"}\n\n');
    const accepted = await outbound(`${base}/accepted`, init(signal));
    expect([accepted.status, await accepted.text()]).toEqual([202, ""]);
    // Redirects are the caller's (the SDK follows same-origin ones itself).
    const redirect = await outbound(`${base}/redirect`, init(signal));
    expect([redirect.status, redirect.headers.get("location")]).toEqual([307, "/json"]);
  });

  // fetch leaves one per request until garbage collection; the last one may still be going away.
  it("leaves no listeners piling up on a transport's lifelong signal", async () => {
    const lifelong = new AbortController().signal;
    for (let i = 0; i < 50; i++) await (await outbound(`${base}/json`, init(lifelong))).text();
    expect(getEventListeners(lifelong, "abort").length).toBeLessThanOrEqual(1);
  });

  it("aborts a request in flight when the signal fires", async () => {
    const controller = new AbortController();
    const stream = await outbound(`${base}/sse`, init(controller.signal));
    controller.abort(new Error("gone"));
    await expect(stream.text()).rejects.toThrow();
  });
});
