import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { openEvents, type EventStream } from "../support/events";
import { startEverything, startFixture, type RunningServer } from "../support/servers";
import { nextPending, pollPending, resultText } from "./interactions-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

describe("server-initiated requests reach a person (HTTP servers)", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let token: string;
  let everything: RunningServer;
  let modern: RunningServer;
  let events: EventStream;
  let id: string;
  let modernId: string;

  beforeAll(async () => {
    [sb, everything, modern] = await Promise.all([startConsole(), startEverything("streamableHttp"), startFixture("modern-input-server.ts")]);
    ({ api, token } = await setupOwner(sb.url));
    id = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    modernId = (await api("POST", "/api/v1/servers", { name: "modern", url: modern.url })).body.server.id;
    events = await openEvents(sb.url, token);
  });
  afterAll(async () => {
    events?.close();
    await Promise.all([sb?.stop(), everything?.stop(), modern?.stop()]);
  });

  it("declares the capabilities, so server-everything lists its trigger tools", async () => {
    const tools = (await api("GET", `/api/v1/servers/${id}/tools`)).body.items.map((t: { name: string }) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["trigger-elicitation-request", "trigger-url-elicitation", "trigger-sampling-request", "get-roots-list"]));
  });

  it("elicitation form: the person's accepted content goes back to the server", async () => {
    const from = events.events.length;
    const call = api("POST", `/api/v1/servers/${id}/tools/call`, { name: "trigger-elicitation-request", arguments: {} });
    const pending = await nextPending(api, events, from);
    expect(pending).toMatchObject({ kind: "elicitation-form", serverName: "everything", status: "pending", attended: true });
    expect(pending.request.requestedSchema.properties.name.type).toBe("string");
    const bad = await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "accept", content: { integer: "x" } });
    expect(bad.status).toBe(422);
    const ok = await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "accept", content: { name: "Ada Lovelace", integer: 7, check: true } });
    expect(ok.status).toBe(200);
    expect(ok.body.interaction).toMatchObject({ status: "answered", answeredBy: "Ada Owner" });
    const text = resultText((await call).body.call);
    expect(text).toContain("Name: Ada Lovelace");
    expect(text).toContain("Favorite Integer: 7");
    const again = await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "decline" });
    expect(again.status).toBe(409);
  });

  it("elicitation form: decline", async () => {
    const from = events.events.length;
    const call = api("POST", `/api/v1/servers/${id}/tools/call`, { name: "trigger-elicitation-request", arguments: {} });
    const pending = await nextPending(api, events, from);
    await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "decline" });
    expect(resultText((await call).body.call)).toContain("declined");
  });

  it("URL elicitation: consent answers accept; -32042 becomes a URL interaction", async () => {
    const from = events.events.length;
    const call = api("POST", `/api/v1/servers/${id}/tools/call`, { name: "trigger-url-elicitation", arguments: { url: "https://example.com/consent?x=1" } });
    const pending = await nextPending(api, events, from);
    expect(pending).toMatchObject({ kind: "elicitation-url", request: { mode: "url", url: "https://example.com/consent?x=1" } });
    await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "accept" });
    expect(resultText((await call).body.call)).toContain("completed the URL elicitation");

    const from2 = events.events.length;
    const failed = (await api("POST", `/api/v1/servers/${id}/tools/call`, { name: "trigger-url-elicitation", arguments: { url: "https://example.com/x", errorPath: true } })).body.call;
    expect(failed.status).toBe("error");
    const fromError = await nextPending(api, events, from2);
    expect(fromError).toMatchObject({ kind: "elicitation-url", fromError: true, request: { url: "https://modelcontextprotocol.io" } });
    const consent = await api("POST", `/api/v1/interactions/${fromError.id}/respond`, { action: "accept" });
    expect(consent.body.interaction.status).toBe("answered");
  });

  it("sampling: the person's reply is the completion", async () => {
    const from = events.events.length;
    const call = api("POST", `/api/v1/servers/${id}/tools/call`, { name: "trigger-sampling-request", arguments: { prompt: "Say hi", maxTokens: 50 } });
    const pending = await nextPending(api, events, from);
    expect(pending.kind).toBe("sampling");
    expect(JSON.stringify(pending.request.messages)).toContain("Say hi");
    const wrong = await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "cancel" });
    expect(wrong.status).toBe(400);
    await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "reply", text: "Hi from a human", model: "human" });
    const text = resultText((await call).body.call);
    expect(text).toContain("Hi from a human");
  });

  it("roots: roots/list answers the stored roots; a change sends list_changed", async () => {
    const set = await api("PATCH", `/api/v1/servers/${id}`, { roots: [{ uri: "file:///tmp/project", name: "project" }] });
    expect(set.body.server.roots).toEqual([{ uri: "file:///tmp/project", name: "project" }]);
    const roots = async () => resultText((await api("POST", `/api/v1/servers/${id}/tools/call`, { name: "get-roots-list" })).body.call);
    // server-everything re-reads its cached roots after notifications/roots/list_changed, asynchronously: ask until it has.
    let first = "";
    await waitFor(async () => (first = await roots()).includes("file:///tmp/project"), 15_000, () => first);
    await api("PATCH", `/api/v1/servers/${id}`, { roots: [{ uri: "file:///srv/data" }] });
    let second = "";
    await waitFor(async () => (second = await roots()).includes("file:///srv/data"), 15_000, () => second);
    expect(second).toContain("file:///srv/data");
    expect(second).not.toContain("file:///tmp/project");
    const invalid = await api("PATCH", `/api/v1/servers/${id}`, { roots: [{ uri: "https://example.com" }] });
    expect(invalid.status).toBe(400);
  });

  it("modern era: input_required drives the same interactions (form, sampling, roots)", async () => {
    await api("PATCH", `/api/v1/servers/${modernId}`, { roots: [{ uri: "file:///home/ada", name: "home" }] });
    const from = events.events.length;
    const call = api("POST", `/api/v1/servers/${modernId}/tools/call`, { name: "confirm", arguments: { what: "deploy" } });
    const pending = await nextPending(api, events, from);
    expect(pending).toMatchObject({ kind: "elicitation-form", serverName: "modern", request: { message: "Really deploy?" } });
    await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "accept", content: { ok: true, note: "go" } });
    const done = (await call).body.call;
    expect(resultText(done)).toContain("confirmed ok=true note=go");

    const from2 = events.events.length;
    const asked = api("POST", `/api/v1/servers/${modernId}/tools/call`, { name: "ask-model", arguments: { prompt: "2+2?" } });
    const sampling = await nextPending(api, events, from2);
    expect(sampling.kind).toBe("sampling");
    await api("POST", `/api/v1/interactions/${sampling.id}/respond`, { action: "reply", text: "4" });
    expect(resultText((await asked).body.call)).toContain('"text":"4"');

    const roots = resultText((await api("POST", `/api/v1/servers/${modernId}/tools/call`, { name: "list-roots" })).body.call);
    expect(roots).toContain("file:///home/ada");
  });

  it("nobody watching: declined at once by default, or waits and takes an answer", async () => {
    events.close();
    await api("PATCH", `/api/v1/servers/${id}`, { unattendedPolicy: "decline" });
    const declined = (await api("POST", `/api/v1/servers/${id}/tools/call`, { name: "trigger-elicitation-request" })).body.call;
    expect(resultText(declined)).toContain("declined");
    const recorded = (await api("GET", `/api/v1/interactions?serverId=${id}`)).body.items[0];
    expect(recorded).toMatchObject({ status: "declined", attended: false, policy: "decline" });
    expect(recorded.outcome).toMatch(/nobody was watching/);

    const sampled = (await api("POST", `/api/v1/servers/${id}/tools/call`, { name: "trigger-sampling-request", arguments: { prompt: "x" } })).body.call;
    expect(JSON.stringify(sampled)).toMatch(/rejected/i);

    await api("PATCH", `/api/v1/servers/${id}`, { unattendedPolicy: "wait", unattendedWaitMs: 30_000 });
    const call = api("POST", `/api/v1/servers/${id}/tools/call`, { name: "trigger-elicitation-request" });
    const pending = await pollPending(api, id);
    expect(pending).toMatchObject({ attended: false, policy: "wait" });
    await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "accept", content: { name: "Late Larry" } });
    expect(resultText((await call).body.call)).toContain("Name: Late Larry");

    await api("PATCH", `/api/v1/servers/${id}`, { unattendedWaitMs: 1000 });
    const expired = (await api("POST", `/api/v1/servers/${id}/tools/call`, { name: "trigger-elicitation-request" })).body.call;
    expect(resultText(expired)).toContain("cancelled");
    const row = (await api("GET", `/api/v1/interactions?serverId=${id}`)).body.items[0];
    expect(row).toMatchObject({ status: "expired", policy: "wait" });
  });
});
