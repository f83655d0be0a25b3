import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startPostgres, type PostgresServer } from "../support/postgres";
import { startEverything, type RunningServer } from "../support/servers";

/**
 * A share link's page is answered by the console before Next (lib/domains/shares/page-front.ts),
 * with one check on the driver per view. While the database is away the page says so (503 with
 * Retry-After: the shell without data, whose script asks again), never a 500 or a hang, and the
 * link works again once the database is back. Its own PostgreSQL server, stopped mid-test.
 */
describe.skipIf(!onPostgres)("a share page while the database is away", () => {
  let pg: PostgresServer;
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let token: string;

  beforeAll(async () => {
    [pg, everything] = await Promise.all([startPostgres(), startEverything("streamableHttp")]);
    const databaseUrl = await pg.createMigratedDatabase(`sb_faults_share_${process.pid}`);
    sb = await startConsole({ databaseUrl, join: true, env: { SWITCHBOARD_MONITORS: "off" } });
    const { api } = await setupOwner(sb.url);
    const serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id as string;
    const call = (await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "shared while down" } })).body.call;
    const share = (await api("POST", `/api/v1/calls/${call.id}/shares`, {})).body.share as { url: string };
    token = share.url.split("/s/")[1]!;
  });
  afterAll(async () => {
    await sb?.stop({ crash: true }).catch(() => undefined);
    await Promise.all([everything?.stop(), pg?.stop()]);
  });

  const load = async () => {
    const res = await fetch(`${sb.url}/s/${token}`, { headers: { accept: "text/html" } });
    return { status: res.status, retryAfter: res.headers.get("retry-after"), html: await res.text() };
  };

  it("answers 503 with the shell and Retry-After while the database is stopped, and 200 again after", async () => {
    const before = await load();
    expect(before.status).toBe(200);
    expect(before.html).toContain('id="sb-share"');

    await pg.stop({ keep: true });
    try {
      const down = await load();
      expect(down.status).toBe(503);
      expect(down.retryAfter).toBe("5");
      expect(down.html).toMatch(/^<!DOCTYPE html>/i);
      expect(down.html).not.toContain('id="sb-share"');
      expect(down.html).not.toContain("shared while down");
      const api = await fetch(`${sb.url}/api/v1/public/shares/${token}`, { headers: { accept: "application/json" } });
      expect(api.status).toBe(503);
      expect((await api.json()).error.code).toBe("unavailable");
    } finally {
      await pg.start();
    }
    await waitFor(async () => (await load()).status === 200, 30_000);
    expect((await load()).html).toContain("shared while down");
  });
});
