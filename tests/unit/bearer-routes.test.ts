import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearerApiRoutes } from "@/lib/api/bearer-routes";

// A build's shape as bearer-routes reads it: the manifest and one CommonJS file per route whose
// `routeModule` loads its handlers lazily, like Next's.
const ROUTES: Record<string, string> = {
  "/api/v1/calls/[id]/route": "GET",
  "/api/v1/calls/export/route": "GET",
  "/api/v1/servers/[id]/tools/call/route": "POST",
  "/api/v1/servers/[id]/[kind]/route": "GET",
  "/api/v1/events/route": "GET",
  "/api/v1/direct/route": "POST",
  "/(console)/servers/page": "",
};

let dist: string;
let server: Server;
let url: string;
let streamAborted: Promise<void>;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), "bearer-routes-"));
  const manifest: Record<string, string> = {};
  for (const [page, method] of Object.entries(ROUTES)) {
    const file = `app${page}.js`;
    manifest[page] = file;
    fs.mkdirSync(path.dirname(path.join(dist, "server", file)), { recursive: true });
    fs.writeFileSync(
      path.join(dist, "server", file),
      `let loaded = null;
module.exports.routeModule = {
  async ensureUserland() { await new Promise((r) => setTimeout(r, 1)); loaded = handlers; },
  get userland() { if (!loaded) throw new Error("not loaded"); return loaded; },
};
const handlers = { runtime: "nodejs", ${method ? `${method}: handler` : ""} };
async function handler(request, { params }) {
  const p = await params;
  if (${JSON.stringify(page)} === "/api/v1/events/route") {
    const body = new ReadableStream({
      start(c) { c.enqueue(new TextEncoder().encode("data: one\\n\\n")); },
    });
    request.signal.addEventListener("abort", () => process.emit("bearer-routes-test-aborted"));
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  }
  if (${JSON.stringify(page)} === "/api/v1/direct/route") {
    // As lib/api/route.ts answers a request of the direct path: the JSON, not yet a Response.
    const body = request[Symbol.for("switchboard.api.bufferedBody")];
    const json = JSON.stringify({ direct: true, body: body ? body.toString() : null });
    return { [Symbol.for("switchboard.api.directReply")]: { status: 202, json, headers: { "retry-after": "3" } } };
  }
  const text = request.method === "POST" ? await request.text() : null;
  const headers = new Headers({ "set-cookie": "a=1" });
  headers.append("set-cookie", "b=2");
  return Response.json({ route: ${JSON.stringify(page)}, params: p, body: text, ip: request.headers.get("x-switchboard-client-ip"), url: request.url }, { status: 201, headers });
}`,
    );
  }
  fs.writeFileSync(path.join(dist, "server", "app-paths-manifest.json"), JSON.stringify(manifest));
  const direct = bearerApiRoutes({ distDir: dist, headers: [["x-frame-options", "DENY"]] })!;
  streamAborted = new Promise((resolve) => process.once("bearer-routes-test-aborted" as never, () => resolve()));
  server = createServer((req, res) => {
    req.headers["x-switchboard-client-ip"] = req.socket.remoteAddress ?? "";
    if (!direct(req, res)) res.writeHead(299).end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const bearer = { authorization: "Bearer sb_test" };

describe("bearer-token API requests outside Next's pipeline", () => {
  it("answers with the built handler, its params decoded, status, headers and cookies kept", async () => {
    const res = await fetch(`${url}/api/v1/calls/a%20b?x=1`, { headers: { ...bearer, "x-switchboard-client-ip": "6.6.6.6" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    const body = await res.json();
    expect(body).toMatchObject({ route: "/api/v1/calls/[id]/route", params: { id: "a b" }, url: `${url}/api/v1/calls/a%20b?x=1` });
    // The socket's address, never the one the client sent.
    expect(body.ip).toBe("127.0.0.1");
  });

  it("prefers a static segment over a parameter, as Next does", async () => {
    expect((await (await fetch(`${url}/api/v1/calls/export`, { headers: bearer })).json()).route).toBe("/api/v1/calls/export/route");
    const call = await (await fetch(`${url}/api/v1/servers/s1/tools/call`, { method: "POST", headers: bearer, body: '{"name":"echo"}' })).json();
    expect(call).toMatchObject({ route: "/api/v1/servers/[id]/tools/call/route", params: { id: "s1" }, body: '{"name":"echo"}' });
    expect((await (await fetch(`${url}/api/v1/servers/s1/tools`, { headers: bearer })).json()).params).toEqual({ id: "s1", kind: "tools" });
  });

  it("writes a route's direct JSON reply as it is, with the headers every path gets", async () => {
    const res = await fetch(`${url}/api/v1/direct`, { method: "POST", headers: bearer, body: '{"a":1}' });
    expect([res.status, res.headers.get("content-type"), res.headers.get("retry-after"), res.headers.get("x-frame-options")]).toEqual([202, "application/json", "3", "DENY"]);
    expect(res.headers.get("content-length")).toBe(String('{"direct":true,"body":"{\\"a\\":1}"}'.length));
    expect(await res.json()).toEqual({ direct: true, body: '{"a":1}' });
  });

  it("streams a large body to the handler", async () => {
    const big = "x".repeat(200_000);
    const call = await (await fetch(`${url}/api/v1/servers/s1/tools/call`, { method: "POST", headers: bearer, body: big })).json();
    expect(call.body).toHaveLength(200_000);
  });

  it("answers 405 in the error shape for a method the route does not export", async () => {
    const res = await fetch(`${url}/api/v1/calls/c1`, { method: "DELETE", headers: bearer });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect((await res.json()).error.code).toBe("method_not_allowed");
  });

  it("leaves cookies, pages, unknown paths and other methods to Next", async () => {
    expect((await fetch(`${url}/api/v1/calls/c1`, { headers: { cookie: "s=1" } })).status).toBe(299);
    expect((await fetch(`${url}/servers`, { headers: bearer })).status).toBe(299);
    expect((await fetch(`${url}/api/v1/nothing/here/at/all`, { headers: bearer })).status).toBe(299);
    expect((await fetch(`${url}/api/v1/calls/`, { headers: bearer })).status).toBe(299);
    expect((await fetch(`${url}/api/v1/calls/c1`, { method: "OPTIONS", headers: bearer })).status).toBe(299);
  });

  it("aborts the request's signal when the client goes away mid-stream", async () => {
    const controller = new AbortController();
    const res = await fetch(`${url}/api/v1/events`, { headers: bearer, signal: controller.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: one\n\n");
    controller.abort();
    await streamAborted;
  });
});
