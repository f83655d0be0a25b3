import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

const SECRET = "s3cret-value-4711";
const ARGS = { message: "hello", api_key: SECRET, nested: { "Client-Secret": SECRET, x_access_token: SECRET } };

/** Issue 11, item 3: one redaction list for history, search, export and traffic; Run again still sends the original. */
describe("secrets in call arguments", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Awaited<ReturnType<typeof setupOwner>>["api"];
  let token: string;
  let call: { id: string; sessionId: string; requestSize: number; params: { arguments: Record<string, unknown> } };

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    ({ api, token } = await setupOwner(sb.url));
    const serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: ARGS });
    expect(res.body.call.status).toBe("ok");
    call = (await api("GET", `/api/v1/calls/${res.body.call.id}`)).body.call;
  });
  afterAll(async () => {
    await everything?.stop();
    await sb?.stop();
  });

  it("masks them in the call, the history list and search, keeping the rest", async () => {
    expect(call.params.arguments).toEqual({ message: "hello", api_key: "[redacted]", nested: { "Client-Secret": "[redacted]", x_access_token: "[redacted]" } });
    const list = await api("GET", "/api/v1/calls");
    expect(JSON.stringify(list.body)).not.toContain(SECRET);
    expect((await api("GET", `/api/v1/calls?q=${SECRET}`)).body.items).toEqual([]);
    expect(call.requestSize).toBe(Buffer.byteLength(JSON.stringify({ name: "echo", arguments: ARGS })));
  });

  it("keeps them out of exports, traffic and the database file in clear", async () => {
    const exported = await fetch(`${sb.url}/api/v1/calls/export?format=ndjson`, { headers: { authorization: `Bearer ${token}` } });
    const text = await exported.text();
    expect(text).toContain('"api_key":"[redacted]"');
    expect(text).not.toContain(SECRET);
    let traffic = "";
    await waitFor(async () => {
      traffic = JSON.stringify((await api("GET", `/api/v1/sessions/${call.sessionId}/traffic`)).body);
      return traffic.includes('"method":"tools/call"') || traffic.includes("tools/call");
    });
    expect(traffic).toContain("hello");
    expect(traffic).not.toContain(SECRET);
    const row = (await sb.db.get<{ params: string; params_secret: string }>('SELECT params, params_secret FROM "call" WHERE id = ?', call.id))!;
    expect(row.params).not.toContain(SECRET);
    expect(row.params_secret).toBeTruthy();
    expect(row.params_secret).not.toContain(SECRET);
  });

  it("sends the original arguments when run again", async () => {
    const again = await api("POST", `/api/v1/calls/${call.id}/rerun`);
    expect(again.body.call.status).toBe("ok");
    expect(again.body.call.rerunOfId).toBe(call.id);
    // What was sent had the secret: its size is the original's, not the masked one's.
    expect(again.body.call.requestSize).toBe(call.requestSize);
    expect(again.body.call.params.arguments.api_key).toBe("[redacted]");
  });
});
