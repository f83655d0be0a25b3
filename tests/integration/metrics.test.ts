import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { parseMetrics, type Sample } from "../support/prometheus";
import { startEverything, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

const TOKEN = "metrics-token-for-tests";
// A tool name a server could send: quotes, braces, a backslash and newlines must be escaped in the exposition.
const HOSTILE = 'evil"} 1\nswitchboard_calls_total{x="y\\';

describe("GET /metrics: Prometheus text of a known workload", () => {
  let sb: ConsoleHandle;
  let loopbackOnly: ConsoleHandle;
  let unset: ConsoleHandle;
  let everything: RunningServer;
  let api: Api;
  let everythingId = "";
  let demoId = "";
  let host: Client | undefined;

  beforeAll(async () => {
    [sb, loopbackOnly, unset, everything] = await Promise.all([
      startConsole({ env: { SWITCHBOARD_METRICS_TOKEN: TOKEN } }),
      startConsole({ env: { SWITCHBOARD_METRICS_LOOPBACK: "1" } }),
      startConsole(),
      startEverything("streamableHttp"),
    ]);
    ({ api } = await setupOwner(sb.url));
    everythingId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    demoId = (await api("POST", "/api/v1/servers/demo")).body.server.id;
  }, 120_000);
  afterAll(async () => {
    await host?.close().catch(() => undefined);
    await Promise.allSettled([sb?.stop(), loopbackOnly?.stop(), unset?.stop(), everything?.stop()]);
  });

  const scrape = async (base = sb.url, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => {
    const res = await fetch(`${base}/metrics`, { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseMetrics(await res.text());
  };
  const samples = (families: Map<string, { metrics: Sample[] }>, name: string) => families.get(name)?.metrics ?? [];
  const calls = (families: Map<string, { metrics: Sample[] }>) => samples(families, "switchboard_calls_total");
  const sum = (list: Sample[], field: "value" | "count" = "value") => list.reduce((n, s) => n + Number(s[field]), 0);
  const call = (serverId: string, name: string, args: Record<string, unknown> = {}) => api("POST", `/api/v1/servers/${serverId}/tools/call`, { name, arguments: args });

  it("counts each call once by server, tool, origin and status, with a latency observation each", async () => {
    for (let i = 0; i < 3; i++) expect((await call(everythingId, "echo", { message: `m${i}` })).body.call.status).toBe("ok");
    // server-everything answers an unknown tool with an error: recorded, and counted, as data.
    for (let i = 0; i < 2; i++) expect((await call(everythingId, "no-such-tool")).body.call.status).toBe("error");
    expect((await call(demoId, "hello", { name: "Ada" })).body.call.status).toBe("ok");

    // Through the gateway, as a host (its call row is completed after the host has its answer).
    const exposure = await api("PUT", `/api/v1/servers/${everythingId}/exposure`, { enabled: true, tools: ["echo"] });
    const gatewayToken = (await api("POST", "/api/v1/tokens", { name: "metrics", scopes: ["gateway"] })).body.secret as string;
    host = await gatewayHost(`${sb.url}${exposure.body.exposure.path}`, gatewayToken, { name: "metrics-host" });
    expect((await host.callTool({ name: "echo", arguments: { message: "via gateway" } })).isError).toBeFalsy();

    // A collection run of two steps.
    const step = (message: string) => ({ serverId: everythingId, method: "tools/call", name: "echo", arguments: { message } });
    const collection = (await api("POST", "/api/v1/collections", { name: "metrics", steps: [step("one"), step("two")] })).body.collection;
    const runId = (await api("POST", `/api/v1/collections/${collection.id}/runs`, {})).body.run.id as string;
    await waitFor(async () => (await api("GET", `/api/v1/runs/${runId}`)).body.run.status !== "running", 60_000);

    let families = await scrape();
    await waitFor(async () => ((families = await scrape()), sum(calls(families)) >= 9));
    const counted = calls(families).map((s) => ({ ...s.labels, value: Number(s.value) }));
    const tool = { method: "tools/call" };
    expect(counted).toEqual(
      expect.arrayContaining([
        { server_id: everythingId, tool: "echo", origin: "user", status: "ok", value: 3, ...tool },
        { server_id: everythingId, tool: "no-such-tool", origin: "user", status: "error", value: 2, ...tool },
        { server_id: demoId, tool: "hello", origin: "user", status: "ok", value: 1, ...tool },
        { server_id: everythingId, tool: "echo", origin: "gateway", status: "ok", value: 1, ...tool },
        { server_id: everythingId, tool: "echo", origin: "collection", status: "ok", value: 2, ...tool },
      ]),
    );
    expect(counted).toHaveLength(5);
    // One observation per call, in the histogram of its server and origin.
    const latency = samples(families, "switchboard_call_duration_seconds");
    expect(sum(latency, "count")).toBe(9);
    expect(latency.find((s) => s.labels?.server_id === everythingId && s.labels.origin === "user")?.count).toBe("5");
    expect(Number(latency.find((s) => s.labels?.origin === "collection")?.sum)).toBeGreaterThan(0);

    // Servers' names join the figures by id; the state gauges are this instance's.
    const names = samples(families, "switchboard_server_info").map((s) => [s.labels?.server_id, s.labels?.server]);
    expect(names).toEqual(expect.arrayContaining([[everythingId, "everything"], [demoId, "demo"]]));
    expect(Number(samples(families, "switchboard_gateway_sessions").find((s) => s.labels?.kind === "bridged")?.value)).toBeGreaterThanOrEqual(1);
    const values = (name: string) => samples(families, name).map((s) => s.value);
    expect(values("switchboard_agents_connected")).toEqual(["0"]);
    expect(values("switchboard_calls_in_flight")).toEqual(["0"]);
    expect(values("switchboard_journal_backlog")).toEqual(["0"]);
    expect(values("switchboard_instance_info")).toEqual(["1"]);
    expect(samples(families, "switchboard_incidents_open")).toEqual([]);
    // SQLite's search indexer catches up on its own (every second by default); PostgreSQL has none.
    if (onPostgres) expect(families.has("switchboard_search_index_backlog")).toBe(false);
    else expect(samples(families, "switchboard_search_index_backlog").map((s) => [s.labels?.scope, Number(s.value) >= 0])).toEqual([["cluster", true]]);
    expect(families.get("process_cpu_user_seconds_total")?.type).toBe("COUNTER");
    expect(families.get("nodejs_heap_size_used_bytes")).toBeDefined();
  }, 120_000);

  it("escapes a hostile tool name, and bounds the label sets of thousands of distinct names", async () => {
    expect((await call(everythingId, HOSTILE)).body.call.status).toBe("error");
    let families = await scrape();
    expect(calls(families).filter((s) => s.labels?.tool === HOSTILE).map((s) => s.value)).toEqual(["1"]);

    const before = sum(calls(families));
    // Past the cap of 2000 label sets (tests/unit/metrics.test.ts sends 5000 names to the cap itself).
    const names = Array.from({ length: 2100 }, (_, i) => `tool-${i}`);
    for (let i = 0; i < names.length; i += 100) await Promise.all(names.slice(i, i + 100).map((name) => call(everythingId, name)));
    families = await scrape();
    const series = calls(families);
    // Counted all the same, but past 2000 label sets the rest share "other".
    expect(sum(series)).toBe(before + names.length);
    expect(series.length).toBeLessThanOrEqual(2001);
    const other = series.find((s) => s.labels?.tool === "other");
    expect(Number(other?.value)).toBe(before + names.length - sum(series.filter((s) => s !== other)));
    expect(Number(other?.value)).toBe(names.length - (2000 - 6));
  }, 300_000);

  it("answers only the token, or loopback clients when so configured, and nothing when neither is set", async () => {
    const refused: Record<string, string>[] = [{}, { authorization: "Bearer wrong" }, { authorization: `Bearer ${TOKEN}x` }, { authorization: `Bearer ${"t".repeat(8000)}` }];
    for (const headers of refused) {
      const res = await fetch(`${sb.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe("unauthorized");
    }
    // Loopback-only: this test's own 127.0.0.1 is served without a token, a request a proxy relayed is not.
    expect((await scrape(loopbackOnly.url, {})).has("switchboard_calls_total")).toBe(true);
    expect((await fetch(`${loopbackOnly.url}/metrics`, { headers: { "x-forwarded-for": "127.0.0.1" } })).status).toBe(401);
    expect((await fetch(`${loopbackOnly.url}/metrics`, { headers: { "x-switchboard-client-ip": "127.0.0.1", "x-forwarded-for": "127.0.0.1" } })).status).toBe(401);
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      const res = await fetch(`${unset.url}/metrics`, { headers });
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe("not_found");
    }
    expect((await fetch(`${sb.url}/metrics`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, origin: sb.url } })).status).toBe(405);
  });

  it("counts monitor runs by status and shows the open incident a failing monitor opened", async () => {
    const failing = { serverId: everythingId, method: "tools/call", name: "echo", arguments: { message: "m" }, assert: [{ kind: "json", path: "/content/0/text", equals: "not this" }] };
    const collectionId = (await api("POST", "/api/v1/collections", { name: "metrics-monitor", steps: [failing] })).body.collection.id;
    const id = (await api("POST", "/api/v1/monitors", { collectionId, schedule: { everySeconds: 5 } })).body.monitor.id as string;
    const failedRuns = async () => (await api("GET", `/api/v1/monitors/${id}/runs`)).body.items.filter((r: any) => r.status === "failed").length as number;
    await waitFor(async () => (await failedRuns()) >= 1, 40_000);
    expect((await api("PATCH", `/api/v1/monitors/${id}`, { enabled: false })).status).toBe(200);
    // A run that had started before the pause still finishes: the figures agree once nothing runs.
    let families = await scrape();
    await waitFor(async () => {
      families = await scrape();
      const counted = samples(families, "switchboard_monitor_runs_total").find((s) => s.labels?.status === "failed");
      return Number(counted?.value ?? 0) === (await failedRuns());
    }, 20_000);
    expect(samples(families, "switchboard_monitor_runs_total").filter((s) => s.labels?.status !== "failed" && Number(s.value) > 0)).toEqual([]);
    expect(samples(families, "switchboard_incidents_open").map((s) => [s.labels?.kind, s.labels?.scope, s.value])).toEqual([["failing", "cluster", "1"]]);
    // The hostile test above filled the label sets: new ones are counted under "other", and still counted.
    expect(sum(calls(families).filter((s) => s.labels?.origin === "monitor" || s.labels?.origin === "other"))).toBe(await failedRuns());
  }, 90_000);
});
