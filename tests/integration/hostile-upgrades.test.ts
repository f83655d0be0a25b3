import fs from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { apiRouteFiles, concretePath } from "../support/routes";

// Short, so that a silent client is cut within the test's patience.
const HANDSHAKE_MS = 1_500;

interface Exchange {
  status: number | null;
  body: string;
  /** The console closed the socket (before `patienceMs`). */
  closed: boolean;
}

/** Writes `text` on a fresh socket and reads until the console closes it or `patienceMs` pass. */
function exchange({ port, text, patienceMs = 10_000 }: { port: number; text: string; patienceMs?: number }): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let received = "";
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const end = received.indexOf("\r\n\r\n");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      resolve({ status: status ? Number(status) : null, body: end < 0 ? "" : received.slice(end + 4), closed });
    };
    const timer = setTimeout(() => done(false), patienceMs);
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => done(true));
    socket.write(text);
  });
}

const head = (lines: string[]) => [...lines, "", ""].join("\r\n");
const upgradeTo = (target: string, headers: string[]) => head([`GET ${target} HTTP/1.1`, "Host: 127.0.0.1", "Connection: Upgrade", ...headers]);
const WEBSOCKET = { "a good key": ["Upgrade: websocket", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="] };
const UPGRADES: Record<string, string[]> = {
  ...WEBSOCKET,
  "a bad key": ["Upgrade: websocket", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: not-a-key"],
  "no key": ["Upgrade: websocket"],
  h2c: ["Upgrade: h2c", "HTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA"],
};
/** The error code of a JSON error body; undefined for any other body. */
function codeOf(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}
const openFds = (pid: number) => fs.readdirSync(`/proc/${pid}/fd`).length;

describe("hostile upgrades and methods at the front door", () => {
  let sb: ConsoleHandle;
  let port: number;

  beforeAll(async () => {
    sb = await startConsole({ env: { SWITCHBOARD_HANDSHAKE_TIMEOUT_MS: String(HANDSHAKE_MS) } });
    port = Number(new URL(sb.url).port);
    // A page through Next: from its first request Next listens for upgrades on the server too.
    expect((await fetch(`${sb.url}/sign-in`)).status).toBeLessThan(500);
  });
  afterAll(async () => {
    await sb?.stop();
  });

  it("answers an upgrade nobody serves with a 4xx and closes the socket", async () => {
    const failures: string[] = [];
    // Every route file, so a new route is in this suite the day it exists.
    const routes = [...new Set(apiRouteFiles().map((r) => concretePath(r.folder)))].filter((path) => path !== "/api/v1/relay");
    for (const target of ["/x", "/api/v1/servers", "/mcp/default/demo"]) {
      for (const [label, headers] of Object.entries(UPGRADES)) {
        const answer = await exchange({ port, text: upgradeTo(target, headers) });
        const code = codeOf(answer.body);
        if (answer.status !== 400 || code !== "bad_request" || !answer.closed) failures.push(`${target} with ${label}: ${answer.status} ${answer.body}, closed: ${answer.closed}`);
      }
    }
    for (const target of routes) {
      const answer = await exchange({ port, text: upgradeTo(target, WEBSOCKET["a good key"]) });
      if (answer.status !== 400 || codeOf(answer.body) !== "bad_request" || !answer.closed) failures.push(`${target}: ${answer.status} ${answer.body}, closed: ${answer.closed}`);
    }
    expect(routes.length).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  });

  it("a flood of upgrades whose clients leave gives back every socket, and the console still answers", async () => {
    const pid = sb.pid();
    const baseline = openFds(pid);
    for (let batch = 0; batch < 6; batch++) {
      await Promise.all(
        Array.from({ length: 50 }, () =>
          new Promise<void>((resolve) => {
            const socket = net.connect(port, "127.0.0.1", () => socket.end(upgradeTo("/x", WEBSOCKET["a good key"])));
            socket.on("error", () => undefined);
            socket.on("close", () => resolve());
            // The client leaves without waiting for an answer it would never get.
            socket.setTimeout(200, () => socket.destroy());
          }),
        ),
      );
    }
    await waitFor(() => openFds(pid) <= baseline + 20, 10_000, () => `open descriptors: ${openFds(pid)}, before the flood: ${baseline}`);
    expect((await fetch(`${sb.url}/api/v1/setup`)).status).toBe(200);
  });

  it("cuts a client that sends part of an upgrade to the relay and goes silent", async () => {
    const partial = ["GET /api/v1/relay HTTP/1.1", "Host: 127.0.0.1", "Connection: Upgrade", "Upgrade: websocket", ""].join("\r\n");
    const started = Date.now();
    const answer = await exchange({ port, text: partial, patienceMs: 20_000 });
    expect(answer.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("the relay refuses an upgrade without an agent token and closes the socket", async () => {
    const answer = await exchange({ port, text: upgradeTo("/api/v1/relay", WEBSOCKET["a good key"]) });
    expect(answer.status).toBe(401);
    expect(answer.closed).toBe(true);
  });

  it("answers unknown methods with 405 in the error shape, on the API, the gateway, better-auth and pages", async () => {
    const failures: string[] = [];
    for (const target of ["/api/v1/servers", "/mcp/default/demo", "/api/auth/get-session", "/", "/sign-in"]) {
      for (const method of ["TRACE", "TRACK", "PROPFIND", "FOO"]) {
        const answer = await exchange({ port, text: head([`${method} ${target} HTTP/1.1`, "Host: 127.0.0.1", "Content-Length: 0", "Connection: close"]) });
        const code = codeOf(answer.body);
        if (answer.status !== 405 || code !== "method_not_allowed") failures.push(`${method} ${target}: ${answer.status} ${answer.body.slice(0, 200)}`);
      }
    }
    // The methods some route serves answer as their routes do, never with a 5xx.
    for (const target of ["/api/v1/servers", "/mcp/default/demo", "/api/auth/get-session", "/"]) {
      for (const method of ["HEAD", "OPTIONS"]) {
        const answer = await exchange({ port, text: head([`${method} ${target} HTTP/1.1`, "Host: 127.0.0.1", "Content-Length: 0", "Connection: close"]) });
        if (answer.status === null || answer.status >= 500) failures.push(`${method} ${target}: ${answer.status}`);
      }
    }
    // CONNECT (Node hands it over like an upgrade), whatever its target.
    for (const target of ["127.0.0.1:9", "/api/v1/servers"]) {
      const answer = await exchange({ port, text: head([`CONNECT ${target} HTTP/1.1`, "Host: 127.0.0.1"]) });
      if (answer.status !== 405 || !answer.closed) failures.push(`CONNECT ${target}: ${answer.status}, closed: ${answer.closed}`);
    }
    expect(failures).toEqual([]);
    expect(sb.logs()).not.toMatch(/TypeError|Unhandled|uncaught/i);
  });
});
