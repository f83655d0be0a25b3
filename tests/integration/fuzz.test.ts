import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { apiRouteFiles } from "../support/routes";

// Routes that would end the run's access (the owner leaving or deleting the workspace) are skipped.
const SKIP = new Set(["DELETE workspace", "POST members/leave", "DELETE workspaces/[id]"]);

const ODD_IDS = ["x".repeat(3000), "%00", "..", "%ED%A0%80", "%F0%9F%92%A9", "'%20OR%201=1--", "-1", "9".repeat(40)];
const NESTED = "[".repeat(10_000) + "]".repeat(10_000);
const BODIES: { label: string; type: string; text: string }[] = [
  { label: "truncated JSON", type: "application/json", text: '{"name": "a' },
  { label: "deeply nested", type: "application/json", text: NESTED },
  { label: "nested object", type: "application/json", text: '{"a":'.repeat(5000) + "1" + "}".repeat(5000) },
  { label: "lone surrogates", type: "application/json", text: '{"name":"\\ud800","url":"http://x/\\udfff","email":"\\ud83d@x.y","arguments":{"k":"\\ud800"},"message":"\\udc00"}' },
  { label: "huge numbers", type: "application/json", text: '{"timeoutMs":1e400,"limit":-1e308,"role":1e999,"retentionDays":123456789012345678901234567890}' },
  { label: "an array", type: "application/json", text: "[]" },
  { label: "a string", type: "application/json", text: '"hello"' },
  { label: "null", type: "application/json", text: "null" },
  { label: "wrong types", type: "application/json", text: '{"name":{},"url":[],"email":7,"arguments":"x","headers":"h","tags":{"a":1},"role":null}' },
  { label: "text/plain", type: "text/plain", text: "name=a&b=c" },
  { label: "form", type: "application/x-www-form-urlencoded", text: "name=a&email=b" },
  { label: "binary", type: "application/octet-stream", text: "\u0000\u0001\u00ff\ufffe" },
  // PostgreSQL's text cannot hold NUL (SQLite's can).
  { label: "NUL in strings", type: "application/json", text: '{"name":"a\\u0000b","url":"http://127.0.0.1:9/\\u0000","email":"a\\u0000@x.y","message":"\\u0000","body":"\\u0000","tags":["\\u0000"],"workspaceName":"\\u0000","requestId":"req-\\u0000-1234"}' },
];
const ODD_QUERY = "?limit=abc&cursor=%00&from=yesterday&to=%ED%A0%80&q=%ED%A0%80&status=%00&serverId=..&level=x&format=zip&after=-1&name=%00&tag=%00&method=%00";

async function inBatches(jobs: (() => Promise<void>)[], size = 8): Promise<void> {
  for (let i = 0; i < jobs.length; i += size) await Promise.all(jobs.slice(i, i + size).map((job) => job()));
}

/** Issue 11, item 10: malformed input on every route answers 4xx in the documented shape, never 500. */
describe("malformed input on every route", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let token: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    token = owner.token;
    ids.id = (await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    const call = await owner.api("POST", `/api/v1/servers/${ids.id}/tools/call`, { name: "echo", arguments: { message: "x" } });
    ids.callId = call.body.call.id;
  });
  afterAll(async () => {
    await everything?.stop();
    await sb?.stop();
  });

  const routes = () => apiRouteFiles().filter((r) => !SKIP.has(`${r.method} ${r.folder}`));
  const pathFor = (folder: string, odd?: string) =>
    "/api/v1/" + folder.split("/").map((seg) => (seg === "[kind]" ? "tools" : /^\[.*\]$/.test(seg) ? (odd ?? ids.id) : seg)).join("/");

  async function check(failures: string[], method: string, path: string, body?: { type: string; text: string }, label = "") {
    const where = `${method} ${path.slice(0, 80)} ${label}`;
    const res = await fetch(sb.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, origin: sb.url, ...(body ? { "content-type": body.type } : {}) },
      body: body?.text,
      signal: AbortSignal.timeout(20_000),
    });
    // Event streams stay open: their status and headers are the answer.
    if (res.headers.get("content-type")?.startsWith("text/event-stream")) return void (await res.body?.cancel());
    const text = await res.text();
    if (res.status >= 500 && res.status !== 502 && res.status !== 503) failures.push(`${where}: ${res.status} ${text.slice(0, 200)}`);
    else if (res.status >= 400 && res.status !== 404 && res.headers.get("content-type")?.includes("json")) {
      const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
      if (typeof parsed.error?.code !== "string" || typeof parsed.error.message !== "string") failures.push(`${where}: ${res.status} not the error shape: ${text.slice(0, 200)}`);
    }
    if (/prisma|sqlite|SELECT |stack|at .*\.js:\d+/i.test(text)) failures.push(`${where}: leaks internals: ${text.slice(0, 200)}`);
  }

  it("odd ids in every path parameter", { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    const jobs = routes()
      .filter((r) => r.folder.includes("["))
      .flatMap((route) => ODD_IDS.map((odd) => () => check(failures, route.method, pathFor(route.folder, odd), route.method === "GET" || route.method === "DELETE" ? undefined : { type: "application/json", text: "{}" }, odd.slice(0, 12))));
    await inBatches(jobs);
    expect(failures).toEqual([]);
  });

  it("malformed bodies on every write, odd query strings on every read", { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    const jobs = routes().flatMap((route) => {
      const path = pathFor(route.folder);
      if (route.method === "GET") return [() => check(failures, "GET", path + ODD_QUERY)];
      if (route.method === "DELETE") return [];
      return BODIES.map((body) => () => check(failures, route.method, path, body, body.label));
    });
    await inBatches(jobs);
    expect(failures).toEqual([]);
  });
});
