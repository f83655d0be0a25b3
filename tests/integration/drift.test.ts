import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertMember } from "../support/database";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { openEvents, type EventStream } from "../support/events";
import { startFixture, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, required });

const V1 = {
  tools: [
    { name: "forecast", description: "Weather forecast", inputSchema: obj({ city: { type: "string" }, days: { type: "number" }, units: { type: "string", enum: ["c", "f", "k"] } }, ["city"]) },
    { name: "legacy", description: "Old tool", inputSchema: { type: "object" } },
    { name: "echo", description: "Echoes", inputSchema: obj({ text: { type: "string" } }) },
  ],
  prompts: [{ name: "greet", arguments: [{ name: "name", required: true }] }],
  resources: [{ uri: "memo://a", name: "a" }],
};
// Every kind of change the issue names: a tool removed, a required argument added, a type narrowed,
// an enum value removed, an optional argument added, a description changed.
const V2 = {
  ...V1,
  tools: [
    {
      name: "forecast",
      description: "Weather forecast",
      inputSchema: obj({ city: { type: "string" }, country: { type: "string" }, days: { type: "integer" }, units: { type: "string", enum: ["c", "f"] }, verbose: { type: "boolean" } }, ["city", "country"]),
    },
    { name: "echo", description: "Echoes text back", inputSchema: obj({ text: { type: "string" } }) },
  ],
};
const V3 = { ...V2, tools: [...V2.tools, { name: "added", inputSchema: { type: "object" } }] };

describe("capability drift: snapshots at connect and daily, diffs, a breaking-change webhook", () => {
  let sb: ConsoleHandle;
  let fixture: RunningServer;
  let owner: Api;
  let admin: Api;
  let member: Api;
  let viewer: Api;
  let serverId: string;
  let events: EventStream;
  let receiver: http.Server;
  let receiverUrl: string;
  const hooks: { headers: http.IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
  const capsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-drift-")), "caps.json");
  const listCounts = async () => (await (await fetch(`${fixture.baseUrl}/counts`)).json()) as Record<string, number>;
  const history = async (id = serverId) => (await viewer("GET", `/api/v1/servers/${id}/capabilities/history`)).body.items as { id: string; source: string; counts: Record<string, number>; changes: number; breaking: number }[];

  beforeAll(async () => {
    fs.writeFileSync(capsFile, JSON.stringify(V1));
    receiver = http.createServer((req, res) => {
      let text = "";
      req.on("data", (d) => (text += d));
      req.on("end", () => {
        hooks.push({ headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/secret-token`;
    // No daily check here (the default is a day): the fixture's list counts then come from connects alone.
    [sb, fixture] = await Promise.all([startConsole(), startFixture("drift-server.ts", { env: { DRIFT_CAPABILITIES: capsFile } })]);
    const o = await setupOwner(sb.url);
    owner = o.api;
    events = await openEvents(sb.url, o.token);
    const make = async (role: string) => apiClient(sb.url, await insertMember(sb.db, { workspaceId: o.workspace.id, userId: `u-${role}`, name: role, email: `${role}@example.com`, role }));
    [admin, member, viewer] = [await make("admin"), await make("member"), await make("viewer")];
    const created = await owner("POST", "/api/v1/servers", { name: "drift", url: fixture.url });
    expect(created.status).toBe(201);
    serverId = created.body.server.id;
  }, 120_000);
  afterAll(async () => {
    events?.close();
    receiver?.close();
    await Promise.all([sb?.stop(), fixture?.stop()]);
  });

  it("watching needs an admin; viewers read the watch with webhooks masked", async () => {
    expect((await viewer("GET", `/api/v1/servers/${serverId}/capabilities/watch`)).body).toEqual({ watch: null });
    for (const who of [viewer, member]) {
      const refused = await who("PUT", `/api/v1/servers/${serverId}/capabilities/watch`, { webhooks: [receiverUrl] });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: "forbidden", details: { requiredRole: "admin" } });
    }
    const bad = await admin("PUT", `/api/v1/servers/${serverId}/capabilities/watch`, { webhooks: ["ftp://example.com/x"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("bad_request");
    const put = await admin("PUT", `/api/v1/servers/${serverId}/capabilities/watch`, { webhooks: [receiverUrl] });
    expect(put.status).toBe(200);
    expect(put.body.watch).toMatchObject({ mail: [], webhooks: [`http://${new URL(receiverUrl).host}/…`] });
    // Mail given, webhooks omitted: the webhook stays.
    const mail = await admin("PUT", `/api/v1/servers/${serverId}/capabilities/watch`, { mail: ["team@example.com"] });
    expect(mail.body.watch).toMatchObject({ mail: ["team@example.com"], webhooks: [`http://${new URL(receiverUrl).host}/…`] });
    expect((await viewer("GET", `/api/v1/servers/${serverId}/capabilities/watch`)).body.watch.mail).toEqual(["team@example.com"]);
    await admin("PUT", `/api/v1/servers/${serverId}/capabilities/watch`, { mail: [] });
  });

  it("a connect stores a snapshot; connecting again with the same capabilities stores none", async () => {
    expect((await owner("POST", `/api/v1/servers/${serverId}/connect`)).status).toBe(200);
    await waitFor(async () => (await history()).length === 1);
    const [first] = await history();
    await events.next((e) => e.type === "capabilities" && e.serverId === serverId && e.snapshotId === first!.id);
    expect(first).toMatchObject({ source: "connect", counts: { tools: 3, prompts: 1, resources: 1, templates: 0 }, changes: 0, breaking: 0 });
    expect((await viewer("GET", `/api/v1/servers/${serverId}/capabilities/diff`)).body).toEqual({ from: null, to: first!.id, changes: [] });

    expect((await owner("POST", `/api/v1/servers/${serverId}/connect`)).status).toBe(200);
    // Once the second connect's lists were read, its snapshot can only be stored or found unchanged; the
    // next connect's snapshot is taken after it (one at a time per server), so the count below is final.
    await waitFor(async () => Object.values(await listCounts()).every((n) => n === 2) && Object.keys(await listCounts()).length === 4);
    expect((await owner("POST", `/api/v1/servers/${serverId}/disconnect`)).status).toBeLessThan(300);
    fs.writeFileSync(capsFile, JSON.stringify(V2));
    expect((await owner("POST", `/api/v1/servers/${serverId}/connect`)).status).toBe(200);
    await waitFor(async () => (await history()).length >= 2);
    const items = await history();
    expect(items.map((i) => i.source)).toEqual(["connect", "connect"]);
    expect(items[0]).toMatchObject({ counts: { tools: 2, prompts: 1, resources: 1, templates: 0 }, changes: 6, breaking: 4 });
  });

  it("the diff lists exactly the changes, classified", async () => {
    const [latest, first] = await history();
    const expected = [
      { kind: "tool", name: "echo", change: "changed", breaking: false, detail: "description changed" },
      { kind: "tool", name: "forecast", change: "changed", breaking: true, detail: 'required argument "country" added' },
      { kind: "tool", name: "forecast", change: "changed", breaking: true, detail: 'type of "days" narrowed from number to integer' },
      { kind: "tool", name: "forecast", change: "changed", breaking: true, detail: 'enum value "k" of "units" removed' },
      { kind: "tool", name: "forecast", change: "changed", breaking: false, detail: 'optional argument "verbose" added' },
      { kind: "tool", name: "legacy", change: "removed", breaking: true, detail: "tool removed" },
    ];
    expect((await viewer("GET", `/api/v1/servers/${serverId}/capabilities/diff`)).body).toEqual({ from: first!.id, to: latest!.id, changes: expected });
    const explicit = await viewer("GET", `/api/v1/servers/${serverId}/capabilities/diff?from=${first!.id}&to=${latest!.id}`);
    expect(explicit.body.changes).toEqual(expected);
    const back = await viewer("GET", `/api/v1/servers/${serverId}/capabilities/diff?from=${latest!.id}&to=${first!.id}`);
    expect(back.body.changes.find((c: { name: string }) => c.name === "legacy")).toEqual({ kind: "tool", name: "legacy", change: "added", breaking: false, detail: "tool added" });
  });

  it("a watched server's breaking change posts one breaking-change webhook with the documented body", async () => {
    await waitFor(() => hooks.length >= 1);
    expect(hooks[0]!.headers["content-type"]).toBe("application/json");
    const body = hooks[0]!.body;
    expect(Object.keys(body).sort()).toEqual(["event", "server", "text", "url"]);
    expect(body).toMatchObject({ event: "breaking-change", server: { id: serverId, name: "drift" } });
    expect(String(body.url)).toMatch(new RegExp(`/servers/${serverId}\\?tab=changes$`));
    expect(String(body.text)).toContain("drift: 4 breaking capability changes");
    expect(String(body.text)).toContain('required argument "country" added');
  });

  it("a breaking change alerts once; the alerts list has it", async () => {
    const alerts = await viewer("GET", "/api/v1/alerts");
    expect(alerts.body.items.filter((a: { event: string }) => a.event === "breaking-change")).toHaveLength(1);
    expect(alerts.body.items[0]).toMatchObject({ event: "breaking-change", server: { id: serverId, name: "drift" }, path: `/servers/${serverId}?tab=changes` });
    expect(hooks).toHaveLength(1);
  });

  it("the daily check snapshots live sessions; a change that breaks nothing alerts nobody", async () => {
    const daily = await startConsole({ env: { SWITCHBOARD_DRIFT_CHECK_MS: "500" } });
    try {
      const api = (await setupOwner(daily.url)).api;
      const id = (await api("POST", "/api/v1/servers", { name: "daily", url: fixture.url })).body.server.id as string;
      const receiverPath = `${receiverUrl}-daily`;
      expect((await api("PUT", `/api/v1/servers/${id}/capabilities/watch`, { webhooks: [receiverPath] })).status).toBe(200);
      await api("POST", `/api/v1/servers/${id}/connect`);
      const items = async () => (await api("GET", `/api/v1/servers/${id}/capabilities/history`)).body.items as { source: string; counts: Record<string, number>; changes: number; breaking: number }[];
      await waitFor(async () => (await items()).length === 1);
      fs.writeFileSync(capsFile, JSON.stringify(V3));
      await waitFor(async () => (await items()).length === 2, 15_000);
      expect((await items())[0]).toMatchObject({ source: "daily", counts: { tools: 3 }, changes: 1, breaking: 0 });
      // Then a breaking one: its webhook is the only one this console sends (one snapshot at a time per server).
      fs.writeFileSync(capsFile, JSON.stringify({ ...V3, tools: V3.tools.filter((t) => t.name !== "echo") }));
      await waitFor(() => hooks.some((h) => (h.body.server as { id: string }).id === id), 15_000);
      expect((await items())[0]).toMatchObject({ source: "daily", changes: 1, breaking: 1 });
      expect(hooks.filter((h) => (h.body.server as { id: string }).id === id)).toHaveLength(1);
    } finally {
      await daily.stop();
      fs.writeFileSync(capsFile, JSON.stringify(V2));
    }
  }, 120_000);

  it("unknown ids and another server's snapshots answer 404 in the documented shape", async () => {
    const missing = await viewer("GET", "/api/v1/servers/no-such-server/capabilities/history");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    expect((await viewer("GET", "/api/v1/servers/no-such-server/capabilities/diff")).status).toBe(404);
    expect((await viewer("GET", "/api/v1/servers/no-such-server/capabilities/watch")).status).toBe(404);
    const bogus = await viewer("GET", `/api/v1/servers/${serverId}/capabilities/diff?from=no-such-snapshot`);
    expect(bogus.status).toBe(404);
    expect(bogus.body.error.code).toBe("not_found");

    const other = (await owner("POST", "/api/v1/servers", { name: "drift-2", url: fixture.url })).body.server.id as string;
    await owner("POST", `/api/v1/servers/${other}/connect`);
    await waitFor(async () => (await history(other)).length === 1);
    const [foreign] = await history(other);
    for (const q of [`from=${foreign!.id}`, `to=${foreign!.id}`]) {
      const res = await viewer("GET", `/api/v1/servers/${serverId}/capabilities/diff?${q}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
  });

  it("a watch is removed by an admin only", async () => {
    expect((await member("DELETE", `/api/v1/servers/${serverId}/capabilities/watch`)).status).toBe(403);
    expect((await admin("DELETE", `/api/v1/servers/${serverId}/capabilities/watch`)).body).toEqual({ watch: null });
    expect((await viewer("GET", `/api/v1/servers/${serverId}/capabilities/watch`)).body).toEqual({ watch: null });
  });
});
