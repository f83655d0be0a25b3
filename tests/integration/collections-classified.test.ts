import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

/**
 * A legacy-era server that opens sessions and then never answers a request: whatever is asked of
 * it (a list, a call) times out. On loopback, answered as JSON.
 */
function startMuteServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method === "GET") return void res.writeHead(405, { allow: "POST, DELETE" }).end();
    if (req.method === "DELETE") return void res.writeHead(200).end();
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => {
      const message = JSON.parse(text) as { id?: number | string; method?: string };
      const answer = (body: unknown, headers: Record<string, string> = {}) => res.writeHead(200, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
      if (message.method === "initialize") {
        const result = { protocolVersion: "2025-11-25", capabilities: { tools: {}, prompts: {}, resources: {} }, serverInfo: { name: "mute", version: "1.0.0" } };
        return answer({ jsonrpc: "2.0", id: message.id, result }, { "mcp-session-id": "mute-session" });
      }
      if (message.method === "server/discover") return answer({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
      if (message.id === undefined) return void res.writeHead(202).end();
      // Anything else is never answered.
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/mcp`, stop: () => new Promise((done) => (server.closeAllConnections(), server.close(() => done()))) });
    }),
  );
}

/**
 * A collection's list steps go through the one classifier like its call steps: a server that
 * does not answer in time records the same status, error and assertion outcome for both kinds.
 */
describe("collections: a list step's failure, classified as a call's", () => {
  let sb: ConsoleHandle;
  let mute: Awaited<ReturnType<typeof startMuteServer>>;
  let api: Api;

  beforeAll(async () => {
    [sb, mute] = await Promise.all([startConsole(), startMuteServer()]);
    ({ api } = await setupOwner(sb.url));
  }, 120_000);
  afterAll(async () => {
    await sb?.stop();
    await mute?.stop();
  });

  it("records a timed-out list step as a timed-out call step is recorded", async () => {
    const serverId = (await api("POST", "/api/v1/servers", { name: "mute", url: mute.url, timeoutMs: 1000 })).body.server.id;
    const steps = [
      { serverId, method: "tools/call", name: "echo", arguments: { message: "never answered" } },
      { serverId, method: "tools/list" },
    ];
    const collectionId = (await api("POST", "/api/v1/collections", { name: "mute", steps })).body.collection.id;
    const runId = (await api("POST", `/api/v1/collections/${collectionId}/runs`, { stopOnFailure: false })).body.run.id;
    let run: any;
    await waitFor(async () => (run = (await api("GET", `/api/v1/runs/${runId}`)).body.run).status !== "running", 60_000, () => JSON.stringify(run));
    expect(run.status).toBe("failed");
    const [call, list] = run.steps.map((s: any) => ({ status: s.status, error: s.error, assertions: s.assertions.map((a: any) => a.message) }));
    expect(call.assertions).toEqual([expect.stringMatching(/^status: expected ok, got error \(timeout\)$/)]);
    expect(list).toEqual(call);
  }, 90_000);
});
