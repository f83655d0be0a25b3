import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken, newToken } from "@/lib/core/crypto";
import { apiClient, startConsole, type ConsoleHandle } from "../support/console";
import { insertMember, type TestDatabase } from "../support/database";
import { type RunningServer, startEverything } from "../support/servers";

// Outbound reach is the operator's decision (issue 24): a workspace's allowed networks only choose
// from SWITCHBOARD_ALLOWED_NETWORKS. Both consoles serve a network (policy forced to public). The
// only traffic is to the MCP server on 127.0.0.1; other ranges appear in entries that are refused
// before anything connects.
const OUTSIDE = /is outside what this console's operator allows .*SWITCHBOARD_ALLOWED_NETWORKS/;
const BLOCKED = /Blocked by the outbound network policy: 127\.0\.0\.1 is a loopback address/;
// Set-up with the operator's code, whatever the console makes of the test's loopback address.
const SETUP_CODE = "REACH-2345";

let everything: RunningServer;
let closed: ConsoleHandle;
let open: ConsoleHandle;

beforeAll(async () => {
  [everything, closed, open] = await Promise.all([
    startEverything("streamableHttp"),
    // The operator allows nothing; anyone may create a workspace.
    startConsole({ env: { SWITCHBOARD_NETWORK_POLICY: "public", SWITCHBOARD_WORKSPACE_CREATION: "anyone", SWITCHBOARD_SETUP_CODE: SETUP_CODE } }),
    // The operator lets workspaces choose loopback (and link-local, which no workspace may choose).
    startConsole({ env: { SWITCHBOARD_NETWORK_POLICY: "public", SWITCHBOARD_ALLOWED_NETWORKS: "127.0.0.0/8,169.254.0.0/16", SWITCHBOARD_SETUP_CODE: SETUP_CODE } }),
  ]);
});

afterAll(async () => {
  await Promise.all([everything?.stop(), closed?.stop(), open?.stop()]);
});

/** A full-scope token of `userId` in `workspaceId`, written straight into the database. */
async function insertToken(db: TestDatabase, workspaceId: string, userId: string): Promise<string> {
  const token = newToken("sb");
  await db.run(
    "INSERT INTO api_token (id, workspace_id, user_id, name, prefix, token_hash, scope, created_at) VALUES (?, ?, ?, ?, ?, ?, 'full', ?)",
    `t-${userId}-${workspaceId}`, workspaceId, userId, "test", token.slice(0, 7), hashToken(token), new Date(),
  );
  return token;
}

/** The owner (set up with the code) and a viewer of the owner's workspace, made in the database. */
async function viewerOf(sb: ConsoleHandle) {
  const setup = await apiClient(sb.url)("POST", "/api/v1/setup", { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery", workspaceName: "Default", setupCode: SETUP_CODE });
  expect(setup.status).toBe(201);
  const owner = { workspace: setup.body.workspace as { id: string }, api: apiClient(sb.url, setup.body.token) };
  const token = await insertMember(sb.db, { workspaceId: owner.workspace.id, userId: "user-viewer", name: "A viewer", email: "viewer@example.com", role: "viewer" });
  return { owner, viewer: apiClient(sb.url, token) };
}

describe("a console whose operator allows no networks", () => {
  let own: ReturnType<typeof apiClient>;
  let workspaceId: string;

  it("lets a viewer create a workspace (SWITCHBOARD_WORKSPACE_CREATION=anyone), which gains no reach", async () => {
    const { viewer } = await viewerOf(closed);
    const created = await viewer("POST", "/api/v1/workspaces", { name: "Mine" });
    expect(created.status).toBe(201);
    workspaceId = created.body.workspace.id;
    own = apiClient(closed.url, await insertToken(closed.db, workspaceId, "user-viewer"));
    expect((await own("GET", "/api/v1/me")).body.role).toBe("owner");

    for (const entry of ["127.0.0.0/8", "127.0.0.1", "localhost", "10.0.0.0/8", "0.0.0.0/0"]) {
      const res = await own("PATCH", "/api/v1/workspace", { allowedNetworks: [entry] });
      expect(res.status, entry).toBe(400);
      expect(res.body.error.code, entry).toBe("bad_request");
      expect(res.body.error.message, entry).toContain(`"${entry}"`);
      expect(res.body.error.message, entry).toMatch(OUTSIDE);
    }
    const metadata = await own("PATCH", "/api/v1/workspace", { allowedNetworks: ["169.254.169.254"] });
    expect(metadata.status).toBe(400);
    expect(metadata.body.error.message).toMatch(/"169\.254\.169\.254" is a link-local or cloud metadata address, which a workspace can never allow/);
    expect((await own("GET", "/api/v1/workspace")).body.workspace.allowedNetworks).toEqual([]);
  });

  it("ignores a list stored in the database: a server on 127.0.0.1 is neither added nor connected", async () => {
    await closed.db.run("UPDATE workspace SET allowed_networks = ? WHERE id = ?", JSON.stringify(["127.0.0.0/8", "127.0.0.1/32", "localhost"]), workspaceId);
    expect((await own("GET", "/api/v1/workspace")).body.workspace.allowedNetworks).toEqual(["127.0.0.0/8", "127.0.0.1/32", "localhost"]);

    const added = await own("POST", "/api/v1/servers", { name: "local", url: everything.url });
    expect(added.status).toBe(403);
    expect(added.body.error.message).toMatch(BLOCKED);

    // A server row written before the change (also straight into the database) cannot connect either.
    const now = new Date();
    await closed.db.run("INSERT INTO server (id, workspace_id, name, url, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)", "srv-stored", workspaceId, "stored", everything.url, now, now);
    const connected = await own("POST", "/api/v1/servers/srv-stored/connect");
    expect(connected.status).toBe(403);
    expect(connected.body.error.message).toMatch(BLOCKED);
    expect(connected.body.error.details).toMatchObject({ kind: "blocked" });
  });
});

describe("a console whose operator allows 127.0.0.0/8", () => {
  let owner: Awaited<ReturnType<typeof viewerOf>>["owner"];
  let viewer: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    ({ owner, viewer } = await viewerOf(open));
  });

  it("lets only admins and owners create workspaces (the default when the policy is public)", async () => {
    const refused = await viewer("POST", "/api/v1/workspaces", { name: "Viewer's" });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "forbidden", message: expect.stringMatching(/Only admins and owners of a workspace may create workspaces/) });
    expect((await owner.api("POST", "/api/v1/workspaces", { name: "Owner's second" })).status).toBe(201);
  });

  it("grants a workspace nothing until it chooses; then 127.0.0.1/32 connects", async () => {
    const before = await owner.api("POST", "/api/v1/servers", { name: "local", url: everything.url });
    expect(before.status).toBe(403);
    expect(before.body.error.message).toMatch(BLOCKED);

    for (const entry of ["10.0.0.0/8", "127.0.0.0/7", "::1"]) {
      const res = await owner.api("PATCH", "/api/v1/workspace", { allowedNetworks: ["127.0.0.1/32", entry] });
      expect(res.status, entry).toBe(400);
      expect(res.body.error.message, entry).toMatch(OUTSIDE);
      expect(res.body.error.details, entry).toEqual({ refused: [entry] });
    }
    const linkLocal = await owner.api("PATCH", "/api/v1/workspace", { allowedNetworks: ["169.254.169.254"] });
    expect(linkLocal.status).toBe(400);
    expect(linkLocal.body.error.message).toMatch(/which a workspace can never allow/);

    const chosen = await owner.api("PATCH", "/api/v1/workspace", { allowedNetworks: ["127.0.0.1/32"] });
    expect(chosen.status).toBe(200);
    expect(chosen.body.workspace).toMatchObject({ allowedNetworks: ["127.0.0.1/32"], network: { mode: "public", envAllowed: ["127.0.0.0/8", "169.254.0.0/16"] } });
    const created = await owner.api("POST", "/api/v1/servers", { name: "local", url: everything.url });
    expect(created.status).toBe(201);
    expect((await owner.api("POST", `/api/v1/servers/${created.body.server.id}/connect`)).status).toBe(200);
    const call = await owner.api("POST", `/api/v1/servers/${created.body.server.id}/tools/call`, { name: "echo", arguments: { message: "chosen" } });
    expect(call.body.call.status).toBe("ok");
  });
});
