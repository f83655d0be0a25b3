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

const HEADER_VALUE = "s3cr3t-value-123";
const JSON_PASSWORD = "hunter2-inside-json";

/** Issue 24, item 4: the default list always holds, JSON in strings is opened, stored secret values never show. */
describe("stored secret values and JSON inside strings", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Awaited<ReturnType<typeof setupOwner>>["api"];
  let token: string;
  let serverId: string;
  let callId: string;
  let shareUrl: string;
  const ARGS = { message: `my key is ${HEADER_VALUE}`, config: JSON.stringify({ user: "ada", password: JSON_PASSWORD }) };

  const expectMasked = (text: string, where: string) => {
    expect(text, `${where} leaks the header value`).not.toContain(HEADER_VALUE);
    expect(text, `${where} leaks the password inside JSON`).not.toContain(JSON_PASSWORD);
  };
  const download = async (format: string) =>
    (await fetch(`${sb.url}/api/v1/calls/export?format=${format}`, { headers: { authorization: `Bearer ${token}` } })).text();

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    ({ api, token } = await setupOwner(sb.url));
    const server = await api("POST", "/api/v1/servers", { name: "keyed", url: everything.url, headers: { "X-Api-Key": HEADER_VALUE } });
    expect(server.status).toBe(201);
    serverId = server.body.server.id;
    // The workspace adds a name of its own: the default list must still apply.
    expect((await api("PATCH", "/api/v1/workspace", { redactionKeys: ["ssn"] })).status).toBe(200);
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: ARGS });
    expect(res.body.call.status).toBe("ok");
    callId = res.body.call.id;
    expectMasked(JSON.stringify(res.body.call), "the call's answer");
    shareUrl = (await api("POST", `/api/v1/calls/${callId}/shares`, {})).body.share.url;
  });
  afterAll(async () => {
    await everything?.stop();
    await sb?.stop();
  });

  it("records the call masked: arguments, JSON inside them and the echoed result", async () => {
    const call = (await api("GET", `/api/v1/calls/${callId}`)).body.call;
    expectMasked(JSON.stringify(call), "history");
    expect(call.params.arguments.message).toBe("my key is [redacted]");
    expect(JSON.parse(call.params.arguments.config)).toEqual({ user: "ada", password: "[redacted]" });
    expect(JSON.stringify(call.result)).toContain("my key is [redacted]");
    const row = (await sb.db.get<{ params: string; result: string }>('SELECT params, result FROM "call" WHERE id = ?', callId))!;
    expectMasked(row.params + row.result, "the call row");
  });

  it("exports it masked as CSV and NDJSON, and keeps it out of traffic", async () => {
    for (const format of ["csv", "ndjson"]) {
      const text = await download(format);
      expect(text).toContain("my key is [redacted]");
      expectMasked(text, `the ${format} export`);
    }
    const sessionId = (await api("GET", `/api/v1/calls/${callId}`)).body.call.sessionId;
    let traffic = "";
    await waitFor(async () => {
      traffic = JSON.stringify((await api("GET", `/api/v1/sessions/${sessionId}/traffic`)).body);
      return traffic.includes("my key is");
    });
    expectMasked(traffic, "traffic");
  });

  it("shows it masked on the public share page and API, even for a row recorded before masking", async () => {
    // As a call recorded before this masking existed would hold it.
    await sb.db.run('UPDATE "call" SET result = ? WHERE id = ?', JSON.stringify({ content: [{ type: "text", text: `Echo: ${HEADER_VALUE}` }, { type: "text", text: ARGS.config }] }), callId);
    const shareToken = shareUrl.split("/s/")[1];
    const viaApi = await fetch(`${sb.url}/api/v1/public/shares/${shareToken}`, { headers: { accept: "application/json" } });
    expect(viaApi.status).toBe(200);
    const body = await viaApi.json();
    expectMasked(JSON.stringify(body), "the public share API");
    expect(body.call.params.arguments.message).toBe("my key is [redacted]");
    expect(body.call.result.content[0].text).toBe("Echo: [redacted]");
    expect(JSON.parse(body.call.result.content[1].text)).toEqual({ user: "ada", password: "[redacted]" });
    const page = await fetch(shareUrl, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("echo");
    expectMasked(html, "the public share page");
    const preview = await api("GET", `/api/v1/calls/${callId}/share-preview`);
    expect(preview.body.redactionKeys).toEqual(expect.arrayContaining(["password", "ssn"]));
    expectMasked(JSON.stringify(preview.body.call), "the share preview");
  });
});
