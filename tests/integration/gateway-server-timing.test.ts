import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseServerTiming } from "@/lib/core/timing";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

const ACCEPT = "application/json, text/event-stream";

/** The stages of a Server-Timing header and its total; the stages sum to the total within 10 %. */
function stagesOf(header: string | null): { stages: Record<string, number>; total: number } {
  const { total, ...stages } = parseServerTiming(header);
  expect(total).toBeGreaterThan(0);
  const sum = Object.values(stages).reduce((a, b) => a + b, 0);
  expect(Math.abs(sum - total!)).toBeLessThanOrEqual(0.1 * total!);
  return { stages, total: total! };
}

describe("Server-Timing on the gateway's answers (a relayed session, raw Streamable HTTP)", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let everything: RunningServer;
  let endpoint: string;
  let headers: Record<string, string>;
  let session: string;

  const post = (message: unknown, extra: Record<string, string> = {}) =>
    fetch(endpoint, { method: "POST", headers: { ...headers, "mcp-session-id": session, ...extra }, body: JSON.stringify(message) });

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    ({ api } = await setupOwner(sb.url));
    const serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id as string;
    endpoint = `${sb.url}${(await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true })).body.exposure.path}`;
    const token = (await api("POST", "/api/v1/tokens", { name: "host", scopes: ["gateway"] })).body.secret as string;
    headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: ACCEPT };
    const init = await fetch(endpoint, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "timing-test", version: "1" } } }),
    });
    expect(init.status).toBe(200);
    session = init.headers.get("mcp-session-id")!;
    expect(session).toBeTruthy();
    await init.text();
    headers["mcp-protocol-version"] = "2025-06-18";
    expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
    // As a host does before it calls: the gateway learns the tools' schemas from this list.
    expect(JSON.stringify(await (await post({ jsonrpc: "2.0", id: "list", method: "tools/list" })).json())).toContain("echo");
  });
  afterAll(async () => {
    await sb?.stop();
    await everything?.stop();
  });

  it("a call answered as JSON names every stage, summing to its total, and its history row keeps them", async () => {
    // An answer slower than the JSON wait (200 ms) streams: on a loaded machine a first call may be.
    let res: Response | undefined;
    for (let id = 2; id < 7 && !res; id++) {
      const answer = await post({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { message: "timed" } } });
      expect(answer.status).toBe(200);
      if (answer.headers.get("content-type")?.includes("application/json")) res = answer;
      else expect(await answer.text()).toContain("timed");
    }
    expect(res).toBeDefined();
    expect(JSON.stringify(await res!.json())).toContain("timed");
    const { stages } = stagesOf(res!.headers.get("server-timing"));
    for (const stage of ["route", "auth", "validation", "journal", "upstream", "render"]) expect(stages[stage], stage).toBeGreaterThanOrEqual(0);

    let recorded: { stages: Record<string, number>; totalMs: number } | null = null;
    await waitFor(async () => {
      const [call] = (await api("GET", "/api/v1/calls?origin=gateway&limit=1")).body.items as { id: string; status: string }[];
      if (call?.status !== "ok") return false;
      recorded = (await api("GET", `/api/v1/calls/${call.id}`)).body.call.timing;
      return recorded !== null;
    });
    expect(Object.keys(recorded!.stages)).toEqual(expect.arrayContaining(["validation", "journal", "upstream"]));
    expect(recorded!.stages.upstream).toBeCloseTo(stages.upstream!, 1);
    expect(recorded!.totalMs).toBeGreaterThanOrEqual(recorded!.stages.upstream!);
  });

  it("an answer streamed as events (progress first) carries the stages known when its headers left", async () => {
    const res = await post({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 }, _meta: { progressToken: "p" } } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const { stages } = stagesOf(res.headers.get("server-timing"));
    expect(stages.journal).toBeGreaterThanOrEqual(0);
    // Waited so far: the progress came before the answer.
    expect(stages.upstream).toBeGreaterThan(0);
    expect(stages.render).toBeUndefined();
    const events = await res.text();
    expect(events).toContain("notifications/progress");
    expect(events).toContain('"id":9');
  });

  it("a refusal carries it too", async () => {
    const res = await fetch(endpoint.replace(/\/[^/]+$/, "/nothing-here"), { method: "POST", headers, body: "{}" });
    expect(res.status).toBe(404);
    expect(parseServerTiming(res.headers.get("server-timing")).route).toBeGreaterThanOrEqual(0);
  });
});
