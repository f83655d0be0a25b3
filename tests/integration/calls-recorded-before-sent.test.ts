import http from "node:http";
import { Readable } from "node:stream";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

/**
 * A server whose tool looks the call up in the console's database when the request reaches it:
 * the journal commits the pending row before the request leaves (docs/architecture/calls.md),
 * one call at a time (written at once) and many at once (gathered into one commit).
 */
async function startWitness(statusOf: (requestId: string) => Promise<string>) {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "witness", version: "1.0.0" });
    server.registerTool("witness", { description: "Reports the call's row as the console stored it", inputSchema: z.object({ requestId: z.string() }) }, async ({ requestId }) => ({
      content: [{ type: "text", text: await statusOf(requestId) }],
    }));
    return server;
  });
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    const response = await handler.fetch(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, ...(body ? { body } : {}) }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) Readable.fromWeb(response.body as never).pipe(res);
    else res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe("a call is recorded before it is sent", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let witness: Awaited<ReturnType<typeof startWitness>>;
  let serverId = "";

  beforeAll(async () => {
    sb = await startConsole();
    witness = await startWitness(async (requestId) => {
      const row = await sb.db.get<{ status: string }>(`SELECT status FROM "call" WHERE request_id = ?`, requestId);
      return row?.status ?? "missing";
    });
    ({ api } = await setupOwner(sb.url));
    serverId = (await api("POST", "/api/v1/servers", { name: "witness", url: witness.url })).body.server.id;
  }, 120_000);

  afterAll(async () => {
    await witness?.stop();
    await sb?.stop();
  });

  const call = async (requestId: string) => {
    const { status, body } = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "witness", arguments: { requestId }, requestId });
    expect(status).toBe(200);
    return body.call as { status: string; result: { content: { text: string }[] } };
  };

  it("one at a time: the server finds the row pending, and the answer finds it completed", async () => {
    for (const requestId of ["single-1", "single-2", "single-3"]) {
      const recorded = await call(requestId);
      expect(recorded.result.content[0]!.text).toBe("pending");
      expect(recorded.status).toBe("ok");
      expect((await sb.db.get<{ status: string }>(`SELECT status FROM "call" WHERE request_id = ?`, requestId))?.status).toBe("ok");
    }
  });

  it("many at once: each of them pending when its request arrives", async () => {
    const ids = Array.from({ length: 16 }, (_, i) => `together-${i}`);
    const recorded = await Promise.all(ids.map(call));
    expect(recorded.map((c) => c.result.content[0]!.text)).toEqual(ids.map(() => "pending"));
    expect(recorded.every((c) => c.status === "ok")).toBe(true);
  });
});
