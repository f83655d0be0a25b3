import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPipeline } from "@/lib/api/pipeline";
import { Reply, type ApiRequest } from "@/lib/api/reply";

// Route modules as the generated loaders hand them over, keyed by the real route table's patterns:
// Next-style handlers (a Request in, a Response out: the gateway's) and the wrapper's (`serve`: a Reply).
let streamAborted: () => void;
const aborted = new Promise<void>((resolve) => (streamAborted = resolve));

async function echo(request: Request, { params }: { params: Promise<Record<string, string>> }): Promise<Response> {
  const text = request.method === "POST" ? await request.text() : null;
  const headers = new Headers({ "set-cookie": "a=1" });
  headers.append("set-cookie", "b=2");
  return Response.json({ params: await params, body: text, ip: request.headers.get("x-switchboard-client-ip"), url: request.url }, { status: 201, headers });
}

const served: { request?: ApiRequest; routedAs?: string } = {};
const viaServe = Object.assign(async () => new Response("next's way"), {
  serve: async (request: ApiRequest, params: Record<string, string>, routedAs: string) => {
    Object.assign(served, { request, routedAs });
    return new Reply({ params, body: await request.text(), buffered: request.bufferedBody !== undefined }, 202, { "retry-after": "3" });
  },
});

const MODULES: Record<string, () => Promise<Record<string, unknown>>> = {
  "/api/v1/calls/:id": async () => ({ GET: echo }),
  "/api/v1/calls/export": async () => ({ GET: async () => Response.json({ route: "export" }) }),
  "/api/v1/servers/:id/tools/call": async () => ({ POST: echo }),
  "/api/v1/servers/:id/:kind": async () => ({ GET: echo }),
  "/api/v1/views": async () => ({ POST: viaServe }),
  "/api/v1/events": async () => ({
    GET: async (request: Request) => {
      request.signal.addEventListener("abort", () => streamAborted());
      const body = new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("data: one\n\n")) });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  }),
};

let server: Server;
let url: string;

beforeAll(async () => {
  const api = apiPipeline({ headers: [["x-frame-options", "DENY"]], modules: MODULES });
  server = createServer((req, res) => {
    req.headers["x-switchboard-client-ip"] = req.socket.remoteAddress ?? "";
    if (!api(req, res)) res.writeHead(299).end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server?.close());

describe("the console's API pipeline (lib/api/pipeline.ts)", () => {
  it("answers with the route's handler, its params decoded, status, headers and cookies kept", async () => {
    const res = await fetch(`${url}/api/v1/calls/a%20b?x=1`, { headers: { "x-switchboard-client-ip": "6.6.6.6", cookie: "s=1" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    const body = await res.json();
    expect(body).toMatchObject({ params: { id: "a b" }, url: `${url}/api/v1/calls/a%20b?x=1` });
    // The socket's address, never the one the client sent.
    expect(body.ip).toBe("127.0.0.1");
  });

  it("prefers a static segment over a parameter, as Next does", async () => {
    expect(await (await fetch(`${url}/api/v1/calls/export`)).json()).toEqual({ route: "export" });
    const call = await (await fetch(`${url}/api/v1/servers/s1/tools/call`, { method: "POST", body: '{"name":"echo"}' })).json();
    expect(call).toMatchObject({ params: { id: "s1" }, body: '{"name":"echo"}' });
    expect((await (await fetch(`${url}/api/v1/servers/s1/tools`)).json()).params).toEqual({ id: "s1", kind: "tools" });
  });

  it("hands the wrapper's handler the route it matched and a buffered body, and writes its Reply", async () => {
    const res = await fetch(`${url}/api/v1/views`, { method: "POST", body: '{"a":1}' });
    expect([res.status, res.headers.get("content-type"), res.headers.get("retry-after"), res.headers.get("x-frame-options")]).toEqual([202, "application/json", "3", "DENY"]);
    const json = '{"params":{},"body":"{\\"a\\":1}","buffered":true}';
    expect(res.headers.get("content-length")).toBe(String(json.length));
    expect(await res.text()).toBe(json);
    expect(served.routedAs).toBe("POST /api/v1/views");
  });

  it("streams a large body to the handler", async () => {
    const big = "x".repeat(200_000);
    const call = await (await fetch(`${url}/api/v1/servers/s1/tools/call`, { method: "POST", body: big })).json();
    expect(call.body).toHaveLength(200_000);
    const res = await (await fetch(`${url}/api/v1/views`, { method: "POST", body: big })).json();
    expect([res.body.length, res.buffered]).toEqual([200_000, false]);
  });

  it("answers 405 in the error shape for a method the route does not export", async () => {
    const res = await fetch(`${url}/api/v1/calls/c1`, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect((await res.json()).error.code).toBe("method_not_allowed");
  });

  it("leaves pages, unknown paths, better-auth and other methods to Next", async () => {
    expect((await fetch(`${url}/servers`)).status).toBe(299);
    expect((await fetch(`${url}/api/v1/nothing/here/at/all`)).status).toBe(299);
    expect((await fetch(`${url}/api/auth/get-session`)).status).toBe(299);
    expect((await fetch(`${url}/api/v1/calls/c1`, { method: "OPTIONS" })).status).toBe(299);
  });

  it("aborts the request's signal when the client goes away mid-stream", async () => {
    const controller = new AbortController();
    const res = await fetch(`${url}/api/v1/events`, { signal: controller.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: one\n\n");
    controller.abort();
    await aborted;
  });
});
