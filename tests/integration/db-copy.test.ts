import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, onPostgres, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { createTestPostgresDatabase } from "../support/postgres";
import { startEverything, type RunningServer } from "../support/servers";
import { callTool } from "./relay-support";

const ROOT = path.resolve(import.meta.dirname, "../..");

function dbCopy(...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", "scripts/db-copy.ts", ...args], { cwd: ROOT, encoding: "utf8" });
}

/** Issue 12 §1: `npm run db:copy` moves a SQLite console's data into PostgreSQL. */
describe.runIf(onPostgres)("moving a console from SQLite to PostgreSQL", () => {
  let before: ConsoleHandle | undefined;
  let after: ConsoleHandle | undefined;
  let everything: RunningServer;
  const sqliteUrl = `file:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-copy-")), "switchboard.db")}`;

  beforeAll(async () => {
    everything = await startEverything("streamableHttp");
  });
  afterAll(async () => {
    await before?.stop();
    await after?.stop();
    await everything?.stop();
  });

  // Two consoles, two migrations of a PostgreSQL database and two copies: past the default 60 s on a busy CI machine.
  it("copies every row; the same token, calls, secrets and id sequences work on PostgreSQL", async () => {
    before = await startConsole({ databaseUrl: sqliteUrl });
    const owner = await setupOwner(before.url);
    const server = await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url, headers: { "X-Api-Key": "sk-copy-secret" } });
    expect(server.status).toBe(201);
    const serverId = server.body.server.id as string;
    const calls: string[] = [];
    for (const message of ["one", "two", "three"]) calls.push((await callTool(owner.api, serverId, "echo", { message })).body.call.id);
    const sealed = await callTool(owner.api, serverId, "echo", { message: "sealed", password: "hunter2-copy" });
    calls.push(sealed.body.call.id);
    expect((await owner.api("POST", `/api/v1/calls/${calls[0]}/notes`, { body: "checked" })).status).toBe(201);
    const history = (await owner.api("GET", "/api/v1/calls?limit=50")).body.items.map((c: { id: string }) => c.id);
    const audit = (await owner.api("GET", "/api/v1/audit?limit=200")).body.items.length as number;
    // An MCP host registered with the console's gateway authorization server (lists: JSON text on SQLite).
    const registered = await fetch(`${before.url}/api/auth/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Host", application_type: "native", redirect_uris: ["http://127.0.0.1:9/callback"], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] }),
    });
    expect(registered.status, await registered.clone().text()).toBe(201);
    const clientId = ((await registered.json()) as { client_id: string }).client_id;
    await before.stop();

    const target = await createTestPostgresDatabase("sb_copy");
    const copied = dbCopy("--from", sqliteUrl, "--to", target);
    expect(copied.status, copied.stderr).toBe(0);
    expect(copied.stdout).toMatch(/call: 4\b/);

    after = await startConsole({ databaseUrl: target });
    expect((await apiClient(after.url)("GET", "/api/v1/setup")).body.needed).toBe(false);
    const same = apiClient(after.url, owner.token);
    expect((await same("GET", "/api/v1/calls?limit=50")).body.items.map((c: { id: string }) => c.id)).toEqual(history);
    expect((await same("GET", `/api/v1/calls/${calls[0]}/notes`)).body.items).toMatchObject([{ body: "checked", author: { name: "Ada Owner" } }]);
    expect((await same("GET", `/api/v1/servers/${serverId}`)).body.server.headerNames).toEqual(["X-Api-Key"]);
    // The sealed arguments still open (same secret): Run again sends the original password, so the
    // request is as large as the original's, not the masked copy's.
    const again = await same("POST", `/api/v1/calls/${sealed.body.call.id}/rerun`, {});
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.call.status).toBe("ok");
    expect(again.body.call.requestSize).toBe(sealed.body.call.requestSize);
    expect(again.body.call.params.arguments.password).toBe("[redacted]");
    // New audit rows take ids after the copied ones.
    expect((await same("POST", "/api/v1/tokens", { name: "after the move" })).status).toBe(201);
    expect((await same("GET", "/api/v1/audit?limit=200")).body.items.length).toBeGreaterThan(audit);

    // The host's registration came along with its lists (arrays on PostgreSQL): it can start an authorization.
    const authorize = new URL(`${after.url}/api/auth/oauth2/authorize`);
    const query = { response_type: "code", client_id: clientId, redirect_uri: "http://127.0.0.1:9/callback", scope: "gateway", code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256", resource: `${after.url}/mcp/${owner.workspace.slug}/everything` };
    for (const [k, v] of Object.entries(query)) authorize.searchParams.set(k, v);
    const started = (await (await fetch(authorize)).json()) as { url?: string };
    expect(started.url).toMatch(/^\/oauth\/sign-in\?/);

    const twice = dbCopy("--from", sqliteUrl, "--to", target);
    expect(twice.status).toBe(1);
    expect(twice.stderr).toMatch(/already holds data/);
  }, 180_000);
});
