import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, onPostgres, setupOwner, startConsole, type ConsoleHandle } from "../support/console";

const MiB = 1024 * 1024;

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email: "ada@example.com", password: "correct horse battery" }),
  });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

/** Issue 11, items 1 (secrets bound to an origin), 5 and 6 (CSRF, proxy trust), 8 (body size), 13 (file modes). */
describe("hardening", () => {
  let sb: ConsoleHandle;
  let token: string;
  let cookie: string;

  beforeAll(async () => {
    sb = await startConsole({ env: { SWITCHBOARD_MAX_CALL_BODY_BYTES: String(3 * MiB) } });
    // A hostile page cannot claim a fresh console: its Origin is not the console's.
    const hostile = await fetch(`${sb.url}/api/v1/setup`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "http://evil.localhost:8080" },
      body: JSON.stringify({ name: "Eve", email: "eve@example.com", password: "password123", workspaceName: "Pwned" }),
    });
    expect(hostile.status).toBe(403);
    expect((await apiClient(sb.url)("GET", "/api/v1/setup")).body).toEqual({ needed: true, codeRequired: false });
    token = (await setupOwner(sb.url)).token;
    cookie = await signIn(sb.url);
  });
  afterAll(async () => {
    await sb?.stop();
  });

  it("refuses cookie-authenticated writes from another origin or with no origin at all", async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${sb.url}/api/v1/tokens`, { method: "POST", headers: { cookie, "content-type": "application/json", ...headers }, body: JSON.stringify({ name: "t" }) });
    const crossPort = await post({ origin: "http://127.0.0.1:1" });
    expect(crossPort.status).toBe(403);
    expect(((await crossPort.json()) as { error: { message: string } }).error.message).toMatch(/Cross-site request refused/);
    expect((await post({})).status).toBe(403);
    expect((await post({ "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await post({ origin: sb.url })).status).toBe(201);
    expect((await post({ "sec-fetch-site": "same-origin" })).status).toBe(201);
    // X-Forwarded-Host is anybody's to send: without SWITCHBOARD_TRUST_PROXY it does not make an origin ours.
    expect((await post({ origin: "http://evil.localhost", "x-forwarded-host": "evil.localhost", "x-forwarded-proto": "http" })).status).toBe(403);
    // Reads need no origin; bearer tokens are never sent by a browser on its own.
    expect((await fetch(`${sb.url}/api/v1/tokens`, { headers: { cookie } })).status).toBe(200);
    const scripted = await fetch(`${sb.url}/api/v1/tokens`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ name: "ci" }) });
    expect(scripted.status).toBe(201);
  });

  it("answers 413 with the error shape for bodies over the cap, declared or streamed", async () => {
    const api = apiClient(sb.url, token);
    const big = await api("POST", "/api/v1/servers", { name: "x", url: "http://127.0.0.1:1/mcp", pad: "x".repeat(2 * MiB) });
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ code: "payload_too_large", details: { maxBytes: MiB } });

    // No Content-Length: the console stops reading at the cap.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        const piece = new TextEncoder().encode(`{"pad":"${"y".repeat(512 * 1024)}`);
        for (let i = 0; i < 4; i++) controller.enqueue(piece);
        controller.close();
      },
    });
    const streamed = await fetch(`${sb.url}/api/v1/servers`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: chunks,
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    expect(streamed.status).toBe(413);

    // The call endpoints take the configured larger cap: a 2 MiB call body gets past parsing.
    const call = await api("POST", "/api/v1/servers/no-such-server/tools/call", { name: "echo", arguments: { message: "z".repeat(2 * MiB) } });
    expect(call.status).toBe(404);
    const tooBigCall = await api("POST", "/api/v1/servers/no-such-server/tools/call", { name: "echo", arguments: { message: "z".repeat(4 * MiB) } });
    expect(tooBigCall.status).toBe(413);
  });

  it("drops stored header values when the URL moves to another origin, unless re-entered", async () => {
    const api = apiClient(sb.url, token);
    const created = await api("POST", "/api/v1/servers", { name: "bound", url: "http://127.0.0.1:9/mcp", headers: { "X-Api-Key": "k-1", Authorization: "Bearer b-1" } });
    expect(created.status).toBe(201);
    const id = created.body.server.id as string;
    // Same origin, other path: the values stay.
    expect((await api("PATCH", `/api/v1/servers/${id}`, { url: "http://127.0.0.1:9/v2/mcp" })).body.server.headerNames.sort()).toEqual(["Authorization", "X-Api-Key"]);
    // Another origin: only what this request re-enters goes along.
    const moved = await api("PATCH", `/api/v1/servers/${id}`, { url: "http://localhost:9/mcp", headers: { Authorization: "Bearer b-2" } });
    expect(moved.status).toBe(200);
    expect(moved.body.server.headerNames).toEqual(["Authorization"]);
    const again = await api("PATCH", `/api/v1/servers/${id}`, { url: "http://127.0.0.2:9/mcp" });
    expect(again.body.server.headerNames).toEqual([]);
    const audit = await api("GET", "/api/v1/audit?action=server.updated");
    const dropped = audit.body.items.map((e: { details: { headersDroppedForNewOrigin?: string[] } }) => e.details.headersDroppedForNewOrigin).filter(Boolean);
    expect(dropped).toEqual([["Authorization"], ["X-Api-Key"]]);
    expect(JSON.stringify(audit.body)).not.toMatch(/k-1|b-1|b-2/);
  });

  it.skipIf(onPostgres)("keeps the database file readable by the console's user only", () => {
    expect(fs.statSync(sb.dbFile).mode & 0o777).toBe(0o600);
    if (fs.existsSync(`${sb.dbFile}-wal`)) expect(fs.statSync(`${sb.dbFile}-wal`).mode & 0o777).toBe(0o600);
  });
});
