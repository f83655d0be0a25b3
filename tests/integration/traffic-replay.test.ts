/**
 * The traffic panel's API: an outgoing call request names the call that sent it (callId), a
 * replay through the call API is recorded as a re-run of it, and a person's pins.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, sessionCookie, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

interface Message {
  id: number;
  direction: string;
  kind: string;
  method: string | null;
  body: string;
  callId: string | null;
}

describe("traffic replay and pins", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Awaited<ReturnType<typeof setupOwner>>["api"];
  let viewer: ReturnType<typeof apiClient>;
  let serverId: string;
  let sessionId: string;

  const requests = async (method: string) =>
    ((await api("GET", `/api/v1/sessions/${sessionId}/traffic?method=${method}&direction=out`)).body.items as Message[]).filter((m) => m.kind === "request");

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    sessionId = (await api("POST", `/api/v1/servers/${serverId}/connect`)).body.session.id;
    const invited = await api("POST", "/api/v1/invitations", { email: "vic@example.com", role: "viewer" });
    const accepted = await fetch(`${sb.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: invited.body.invitation.url.split("/invite/")[1], name: "Vic", password: "password-vic-123" }),
    });
    expect(accepted.status).toBe(200);
    const cookie = await sessionCookie(sb.url, "vic@example.com", "password-vic-123");
    viewer = (method, route, body, headers = {}) => apiClient(sb.url)(method, route, body, { cookie, "x-workspace-id": owner.workspace.id, ...headers });
  });
  afterAll(async () => {
    await Promise.all([sb?.stop(), everything?.stop()]);
  });

  it("links each call request to its call, and a replay is a re-run of it", async () => {
    const first = (await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "one" } })).body.call;
    const second = (await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "two" } })).body.call;
    const read = (await api("POST", `/api/v1/servers/${serverId}/resources/read`, { uri: "demo://resource/static/document/architecture.md" })).body.call;
    expect([first.status, second.status]).toEqual(["ok", "ok"]);

    const calls = await requests("tools/call");
    expect(calls.map((m) => m.callId)).toEqual([first.id, second.id]);
    expect((await requests("resources/read")).map((m) => m.callId)).toEqual([read.id]);
    // Messages that are not call requests link to nothing.
    const all = (await api("GET", `/api/v1/sessions/${sessionId}/traffic`)).body.items as Message[];
    expect(all.filter((m) => m.method === "initialize").every((m) => m.callId === null)).toBe(true);

    // What the panel sends: the recorded params, to the call API, as a re-run of the linked call.
    const params = JSON.parse(calls[1]!.body).params;
    const replay = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: params.name, arguments: params.arguments, rerunOf: calls[1]!.callId });
    expect(replay.status).toBe(200);
    expect(replay.body.call).toMatchObject({ status: "ok", rerunOfId: second.id, origin: "user", params: { arguments: { message: "two" } } });
    const reread = await api("POST", `/api/v1/servers/${serverId}/resources/read`, { uri: read.name, rerunOf: read.id });
    expect(reread.body.call).toMatchObject({ status: "ok", rerunOfId: read.id });
    // The replay's own request is linked to the new call.
    expect((await requests("tools/call")).map((m) => m.callId)).toEqual([first.id, second.id, replay.body.call.id]);
  });

  it("pins a message for one person, at any role, until unpinned", async () => {
    const [message] = await requests("tools/call");
    expect((await api("PUT", `/api/v1/sessions/${sessionId}/traffic/${message!.id}/pin`)).body).toEqual({ pinned: true });
    expect((await api("PUT", `/api/v1/sessions/${sessionId}/traffic/${message!.id}/pin`)).status).toBe(200);
    const pins = (await api("GET", `/api/v1/sessions/${sessionId}/traffic/pins`)).body.items as Message[];
    expect(pins.map((m) => m.id)).toEqual([message!.id]);
    expect(pins[0]!.callId).toBe(message!.callId);

    // Someone else's pins are their own; a viewer may pin.
    expect((await viewer("GET", `/api/v1/sessions/${sessionId}/traffic/pins`)).body.items).toEqual([]);
    expect((await viewer("PUT", `/api/v1/sessions/${sessionId}/traffic/${message!.id}/pin`)).status).toBe(200);
    expect(((await viewer("GET", `/api/v1/sessions/${sessionId}/traffic/pins`)).body.items as Message[]).map((m) => m.id)).toEqual([message!.id]);
    // ...but not replay.
    expect((await viewer("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "no" } })).status).toBe(403);

    expect((await api("PUT", `/api/v1/sessions/${sessionId}/traffic/999999999/pin`)).status).toBe(404);
    expect((await api("PUT", `/api/v1/sessions/${sessionId}/traffic/abc/pin`)).status).toBe(400);
    expect((await api("DELETE", `/api/v1/sessions/${sessionId}/traffic/${message!.id}/pin`)).body).toEqual({ pinned: false });
    expect((await api("GET", `/api/v1/sessions/${sessionId}/traffic/pins`)).body.items).toEqual([]);
    expect((await viewer("GET", `/api/v1/sessions/${sessionId}/traffic/pins`)).body.items).toHaveLength(1);
  });
});
