import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startPostgres, type PostgresServer } from "../support/postgres";
import { startEverything, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "outage-host", version: "1.0.0" } } };

/** A host's first POST on a gateway endpoint, as any MCP host sends it. */
function hostPost(url: string, token: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(initialize),
  });
}

/**
 * The gateway's HTTP answers go through the API's one error converter: the console's own database
 * away is a 503 with Retry-After in the API's error shape (a host retries), never a 500, and never
 * a 401 that would send the host to sign in again.
 */
describe("the gateway's answers while its database is away", () => {
  let pg: PostgresServer;
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Api;
  const endpoints: string[] = [];
  const tokens: string[] = [];

  beforeAll(async () => {
    if (!onPostgres) return;
    [pg, everything] = await Promise.all([startPostgres(), startEverything("streamableHttp")]);
    sb = await startConsole({ databaseUrl: await pg.createMigratedDatabase("sb_faults_gateway") });
    ({ api } = await setupOwner(sb.url));
    for (const name of ["warm", "cold"]) {
      const serverId = (await api("POST", "/api/v1/servers", { name, url: everything.url })).body.server.id;
      endpoints.push(`${sb.url}${(await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true })).body.exposure.path}`);
    }
    for (const name of ["used", "unused"]) tokens.push((await api("POST", "/api/v1/tokens", { name, scopes: ["gateway"] })).body.secret);
  }, 120_000);
  afterAll(async () => {
    await sb?.stop().catch(() => undefined);
    await Promise.all([everything?.stop(), pg?.stop()]);
  });

  it.skipIf(!onPostgres)("answers 503 with Retry-After (not 500 or 401) while PostgreSQL is down, and serves again once it is back", async () => {
    const [warm, cold] = endpoints as [string, string];
    const [used, unused] = tokens as [string, string];
    // The warm endpoint's route is cached; the unused token was never verified.
    expect((await hostPost(warm, used)).status).toBe(200);
    await pg.stop({ keep: true });
    try {
      for (const [url, token] of [[warm, unused], [cold, used]] as const) {
        const answer = await hostPost(url, token);
        const body = await answer.json();
        expect({ status: answer.status, body }).toMatchObject({ status: 503, body: { error: { code: "unavailable" } } });
        expect(answer.headers.get("retry-after")).toBe("2");
        expect(answer.headers.get("www-authenticate")).toBeNull();
      }
    } finally {
      await pg.start();
    }
    await waitFor(async () => (await hostPost(cold, unused)).status === 200, 20_000);
  }, 120_000);
});
