import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startFixture, type RunningServer } from "../support/servers";

/** Reads server-sent events from GET /api/v1/events until `until` matches one. */
async function nextEvent(url: string, token: string, trigger: () => Promise<unknown>, until: (e: Record<string, unknown>) => boolean) {
  const controller = new AbortController();
  const res = await fetch(`${url}/api/v1/events`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  await trigger();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("event stream ended");
      buffer += value;
      for (const line of buffer.split("\n")) {
        if (!line.startsWith("data: ")) continue;
        const event = JSON.parse(line.slice(6)) as Record<string, unknown>;
        if (until(event)) return event;
      }
      buffer = buffer.slice(buffer.lastIndexOf("\n") + 1);
    }
  } finally {
    controller.abort();
  }
}

describe("live workspace events", () => {
  let sb: ConsoleHandle;
  let fixture: RunningServer;
  let api: Awaited<ReturnType<typeof setupOwner>>["api"];
  let token: string;

  beforeAll(async () => {
    [sb, fixture] = await Promise.all([startConsole(), startFixture("hostile-server.ts")]);
    ({ api, token } = await setupOwner(sb.url));
  });
  afterAll(async () => {
    await Promise.all([sb?.stop(), fixture?.stop()]);
  });

  it("announces a connection and a tools list_changed, after which the list shows the new tool", async () => {
    const server = (await api("POST", "/api/v1/servers", { name: "ok", url: `${fixture.baseUrl}/ok` })).body.server;
    const connected = await nextEvent(sb.url, token, () => api("POST", `/api/v1/servers/${server.id}/connect`), (e) => e.type === "server");
    expect(connected).toEqual({ type: "server", serverId: server.id, status: "connected" });

    const before = (await api("GET", `/api/v1/servers/${server.id}/tools`)).body.items.map((t: { name: string }) => t.name);
    expect(before).not.toContain("extra");
    const changed = await nextEvent(
      sb.url,
      token,
      () => api("POST", `/api/v1/servers/${server.id}/tools/call`, { name: "notify-tools-changed" }),
      (e) => e.type === "list_changed",
    );
    expect(changed).toEqual({ type: "list_changed", serverId: server.id, kind: "tools" });
    const after = (await api("GET", `/api/v1/servers/${server.id}/tools`)).body.items.map((t: { name: string }) => t.name);
    expect(after).toContain("extra");
  });

  it("does not leak one workspace's events to another", async () => {
    const signIn = await fetch(`${sb.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ email: "ada@example.com", password: "correct horse battery" }),
    });
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const other = (await api("POST", "/api/v1/workspaces", { name: "Other" })).body.workspace;
    const res = await fetch(`${sb.url}/api/v1/tokens`, {
      method: "POST",
      headers: { cookie, origin: sb.url, "x-workspace-id": other.id, "content-type": "application/json" },
      body: JSON.stringify({ name: "other" }),
    });
    const otherToken = ((await res.json()) as { secret: string }).secret;
    const otherApi = (method: string, route: string, body?: unknown) =>
      fetch(`${sb.url}${route}`, {
        method,
        headers: { authorization: `Bearer ${otherToken}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
        .then((r) => r.text())
        .then((text) => (text ? JSON.parse(text) : null) as any);
    const mine = (await api("POST", "/api/v1/servers", { name: "mine", url: `${fixture.baseUrl}/ok` })).body.server;
    const theirs = (await otherApi("POST", "/api/v1/servers", { name: "theirs", url: `${fixture.baseUrl}/ok` })).server;

    // The other workspace's stream sees its own connect, and nothing of ours that came first.
    const first = await nextEvent(
      sb.url,
      otherToken,
      async () => {
        await api("POST", `/api/v1/servers/${mine.id}/connect`);
        await otherApi("POST", `/api/v1/servers/${theirs.id}/connect`);
      },
      () => true,
    );
    expect(first).toEqual({ type: "server", serverId: theirs.id, status: "connected" });

    // A signed-in browser names its workspace in the query (EventSource cannot send headers).
    const controller = new AbortController();
    const stream = await fetch(`${sb.url}/api/v1/events?workspace=${other.id}`, { headers: { cookie }, signal: controller.signal });
    expect(stream.status).toBe(200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    await api("POST", `/api/v1/servers/${mine.id}/disconnect`);
    await otherApi("POST", `/api/v1/servers/${theirs.id}/disconnect`);
    // Every event up to the disconnect (a capability snapshot of the earlier connect may come first) is theirs.
    let text = "";
    const events = () => [...text.matchAll(/^data: (.*)\n/gm)].map((m) => JSON.parse(m[1]!) as { type: string; serverId?: string });
    while (!events().some((e) => e.type === "server")) text += (await reader.read()).value ?? "";
    controller.abort();
    expect(events().map((e) => e.serverId)).toEqual(events().map(() => theirs.id));
    expect(events().find((e) => e.type === "server")).toEqual({ type: "server", serverId: theirs.id, status: "disconnected" });
    const foreign = await fetch(`${sb.url}/api/v1/events?workspace=not-mine`, { headers: { cookie } });
    expect(foreign.status).toBe(403);
  });
});
