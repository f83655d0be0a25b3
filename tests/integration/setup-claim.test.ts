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
  const local = (sb: ConsoleHandle) => new URL(sb.url).host;

  beforeAll(async () => {
    [plain, named] = await Promise.all([
      startConsole({ env: { SWITCHBOARD_TRUST_PROXY: "1" } }),
      startConsole({ env: { SWITCHBOARD_URL: "http://switchboard.localhost:8443", SWITCHBOARD_SETUP_CODE: "ABCD-2345" } }),
    ]);
  });
  afterAll(async () => {
    await plain?.stop();
    await named?.stop();
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
});
