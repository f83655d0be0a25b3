import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsole, type ConsoleHandle } from "../support/console";

const OWNER = { name: "Ada", email: "ada@example.com", password: "correct horse battery", workspaceName: "Default" };

/** A request with any Host header (fetch will not send one of our choosing). */
function send(base: string, method: string, host: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const url = new URL("/api/v1/setup", base);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { host, "content-type": "application/json", ...headers } }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Issue 11, item 4: a fresh console cannot be claimed by a page or a machine that is not its operator's. */
describe("claiming a fresh console", () => {
  let plain: ConsoleHandle;
  let named: ConsoleHandle;
  let direct: ConsoleHandle;
  let loopback: ConsoleHandle;
  const local = (sb: ConsoleHandle) => new URL(sb.url).host;

  beforeAll(async () => {
    [plain, named, direct, loopback] = await Promise.all([
      startConsole({ env: { SWITCHBOARD_TRUST_PROXY: "1" } }),
      startConsole({ env: { SWITCHBOARD_URL: "http://switchboard.localhost:8443", SWITCHBOARD_SETUP_CODE: "ABCD-2345" } }),
      startConsole({ env: { SWITCHBOARD_SETUP_CODE: "EFGH-6789" } }),
      startConsole(),
    ]);
  });
  afterAll(async () => {
    await plain?.stop();
    await named?.stop();
    await direct?.stop();
    await loopback?.stop();
  });

  it("asks for the code printed in the log when the Host is not a loopback name (DNS rebinding) or the client is elsewhere", async () => {
    expect((await send(plain.url, "GET", local(plain))).body).toEqual({ needed: true, codeRequired: false });
    expect((await send(plain.url, "GET", `evil.example:${new URL(plain.url).port}`)).body).toEqual({ needed: true, codeRequired: true });

    const rebound = await send(plain.url, "POST", `evil.example:${new URL(plain.url).port}`, OWNER);
    expect(rebound.status).toBe(403);
    expect(rebound.body.error.message).toMatch(/needs the set-up code/);
    // Behind a trusted proxy, the address the proxy saw counts: not this machine.
    const remote = await send(plain.url, "POST", local(plain), OWNER, { "x-forwarded-for": "127.0.0.1, 203.0.113.9" });
    expect(remote.status).toBe(403);
    const wrong = await send(plain.url, "POST", local(plain), { ...OWNER, setupCode: "WXYZ-9999" }, { "x-forwarded-for": "203.0.113.9" });
    expect(wrong.body.error.message).toMatch(/code is wrong/);
    expect((await send(plain.url, "GET", local(plain))).body.needed).toBe(true);

    const code = /Set-up code \(needed to set up from another machine\): (\S+)/.exec(plain.logs())?.[1];
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const claimed = await send(plain.url, "POST", local(plain), { ...OWNER, setupCode: code!.toLowerCase() }, { "x-forwarded-for": "203.0.113.9" });
    expect(claimed.status).toBe(201);
    expect((await send(plain.url, "POST", local(plain), { ...OWNER, setupCode: code })).status).toBe(409);
  });

  it("refuses set-up addressed to any host but the configured URL's, even from this machine", async () => {
    const viaLoopback = await send(named.url, "POST", local(named), OWNER);
    expect(viaLoopback.status).toBe(403);
    expect(viaLoopback.body.error.message).toMatch(/switchboard\.localhost:8443 \(SWITCHBOARD_URL\)/);
    expect((await send(named.url, "POST", "switchboard.localhost:8443", OWNER)).status).toBe(403);
    const ok = await send(named.url, "POST", "switchboard.localhost:8443", { ...OWNER, setupCode: "abcd 2345" });
    expect(ok.status).toBe(201);
    expect(ok.body.token).toMatch(/\S{20,}/);
  });

  it("asks for the code when a proxy on this machine forwarded the request, though its socket is loopback", async () => {
    const port = new URL(direct.url).port;
    const forwardings: Record<string, string>[] = [
      { "x-forwarded-for": "203.0.113.9" },
      { "x-forwarded-host": "console.example.com" },
      { "x-forwarded-proto": "https" },
      { forwarded: "for=203.0.113.9" },
      { "x-real-ip": "203.0.113.9" },
      // What a same-host proxy that rewrites Host to loopback may send: the very values Next would fill in.
      { "x-forwarded-proto": "http" },
      { "x-forwarded-host": local(direct) },
    ];
    for (const headers of forwardings) {
      expect((await send(direct.url, "GET", local(direct), undefined, headers)).body, JSON.stringify(headers)).toEqual({ needed: true, codeRequired: true });
      const refused = await send(direct.url, "POST", local(direct), OWNER, headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.body.error.message).toMatch(/needs the set-up code/);
    }
    const named = await send(direct.url, "POST", "console.example.com", OWNER);
    expect(named.status).toBe(403);
    expect(named.body.error.message).toMatch(/needs the set-up code/);
    // Loopback names: 127.0.0.0/8, ::1 and localhost, any port.
    for (const host of [local(direct), `localhost:${port}`, "localhost", `127.0.0.2:${port}`, `[::1]:${port}`]) {
      expect((await send(direct.url, "GET", host)).body, host).toEqual({ needed: true, codeRequired: false });
    }
    for (const host of [`localhost.example.com:${port}`, `10.0.0.1:${port}`]) {
      expect((await send(direct.url, "GET", host)).body, host).toEqual({ needed: true, codeRequired: true });
    }
    // A trusted proxy forwarding without X-Forwarded-For names no client to judge.
    expect((await send(plain.url, "GET", local(plain), undefined, { "x-real-ip": "127.0.0.1" })).body.codeRequired).toBe(true);
    expect((await send(plain.url, "GET", local(plain), undefined, { "x-forwarded-for": "203.0.113.9, 127.0.0.1" })).body.codeRequired).toBe(false);

    const claimed = await send(direct.url, "POST", local(direct), { ...OWNER, setupCode: "EFGH-6789" }, { "x-forwarded-for": "203.0.113.9" });
    expect(claimed.status).toBe(201);
  });

  it("lets the operator on this machine set up without the code when nothing was forwarded", async () => {
    expect((await send(loopback.url, "GET", local(loopback))).body).toEqual({ needed: true, codeRequired: false });
    const claimed = await send(loopback.url, "POST", local(loopback), OWNER);
    expect(claimed.status).toBe(201);
    expect((await send(loopback.url, "GET", local(loopback))).body.needed).toBe(false);
  });
});
