import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];
const KEY = "key-4b9e0c77d1";

// Playwright MCP's HTTP mode refuses a Host it was not started for with a plain-text 403.
function refusingServer(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    req.resume();
    if (req.url === "/challenge") {
      res.writeHead(403, { "content-type": "text/plain", "www-authenticate": 'Bearer error="insufficient_scope"' }).end("Forbidden");
      return;
    }
    const port = (server.address() as AddressInfo).port;
    res.writeHead(403, { "content-type": "text/plain" }).end(`Access is only allowed at localhost:${port} (sent \u001b[31m${req.headers["x-api-key"] ?? "no key"})`);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("a loopback server that refuses with its own words", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let fixture: http.Server;
  let base: string;

  beforeAll(async () => {
    [sb, fixture] = await Promise.all([startConsole(), refusingServer()]);
    ({ api } = await setupOwner(sb.url));
    base = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await sb?.stop();
    await new Promise((resolve) => fixture?.close(resolve));
  });

  it("shows the server's own text, redacted, and does not call it a credentials problem", async () => {
    const created = await api("POST", "/api/v1/servers", { name: "playwright-http", url: `${base}/mcp`, headers: { "x-api-key": KEY } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const res = await api("POST", `/api/v1/servers/${created.body.server.id}/connect`);
    expect(res.status).toBe(502);
    expect(res.body.error.details).toMatchObject({ kind: "http", status: 403 });
    expect(res.body.error.message).toMatch(/^HTTP 403 Forbidden \(server said: Access is only allowed at localhost:\d+ \(sent \[31m\[redacted\]\)\)$/);
    expect(JSON.stringify(res.body)).not.toContain(KEY);
  });

  it("keeps a 403 with an authentication challenge a credentials problem", async () => {
    const created = await api("POST", "/api/v1/servers", { name: "scoped", url: `${base}/challenge` });
    const res = await api("POST", `/api/v1/servers/${created.body.server.id}/connect`);
    expect(res.status).toBe(502);
    expect(res.body.error.details).toMatchObject({ kind: "unauthorized", status: 403 });
  });
});
