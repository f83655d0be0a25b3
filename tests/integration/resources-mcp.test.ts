import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpConnection, McpError, openConnection } from "@/lib/mcp/server";
import { startEverything, startFixture, type RunningServer } from "../support/servers";

/** Collects `notifications/resources/updated` URIs and lets a test wait for one. */
function updates() {
  const seen: string[] = [];
  const waiters = new Set<() => void>();
  return {
    seen,
    onResourceUpdated(uri: string) {
      seen.push(uri);
      for (const wake of [...waiters]) wake();
    },
    next(uri: string, from = 0, timeoutMs = 15_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!seen.slice(from).includes(uri)) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => (done(), reject(new Error(`no update for ${uri}; saw ${JSON.stringify(seen)}`))), timeoutMs);
        const done = () => (clearTimeout(timer), waiters.delete(check));
        waiters.add(check);
        check();
      });
    },
  };
}

describe("lib/mcp resource subscriptions and completions", () => {
  let everything: RunningServer;
  const open: McpConnection[] = [];

  beforeAll(async () => {
    everything = await startEverything("streamableHttp");
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await everything?.stop();
  });

  const toggle = (conn: McpConnection) => conn.request("tools/call", { name: "toggle-subscriber-updates", arguments: {} });

  it("completes through completion/complete", async () => {
    const conn = await openConnection({ url: everything.url, transport: "streamable-http", headers: {}, timeoutMs: 20_000 });
    open.push(conn);
    const result = await conn.complete({ ref: { type: "ref/prompt", name: "completable-prompt" }, argument: { name: "department", value: "S" } });
    expect(result.values).toEqual(["Sales", "Support"]);
  });

  it("renews subscriptions on the fresh session after the server forgot the old one", async () => {
    const u = updates();
    const dropped: string[][] = [];
    const conn = await openConnection({
      url: everything.url,
      transport: "streamable-http",
      headers: {},
      timeoutMs: 20_000,
      onResourceUpdated: u.onResourceUpdated,
      onSubscriptionsDropped: (uris) => dropped.push(uris),
    });
    open.push(conn);
    const uri = "demo://resource/static/document/architecture.md";
    await conn.subscribeResource(uri);
    expect(conn.resourceSubscriptions).toEqual([uri]);
    await toggle(conn);
    await u.next(uri);

    const before = conn.info.remoteSessionId;
    await everything.stop();
    everything = await startEverything("streamableHttp", { port: everything.port });
    const mark = u.seen.length;
    // This call meets the forgotten session, re-initialises, re-subscribes, then runs on the fresh session.
    await toggle(conn);
    expect(conn.info.remoteSessionId).not.toBe(before);
    await u.next(uri, mark);
    expect(conn.resourceSubscriptions).toEqual([uri]);
    expect(dropped).toEqual([]);

    await conn.unsubscribeResource(uri);
    expect(conn.resourceSubscriptions).toEqual([]);
    await toggle(conn);
  });

  it("refuses to subscribe when the server does not declare resources.subscribe", async () => {
    const conn = await openConnection({ url: everything.url, transport: "streamable-http", headers: {}, timeoutMs: 20_000 });
    open.push(conn);
    // server-everything declares it; pretend it did not (the guard reads the negotiated capabilities).
    (conn.info.capabilities as { resources: { subscribe?: boolean } }).resources.subscribe = false;
    const err = await conn.subscribeResource("demo://x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).message).toMatch(/resources\.subscribe/);
  });
});

describe("modern-era resource subscriptions (subscriptions/listen)", () => {
  let modern: RunningServer;
  let conn: McpConnection | undefined;

  beforeAll(async () => {
    modern = await startFixture("modern-resources-server.ts");
  });
  afterAll(async () => {
    await conn?.close();
    await modern?.stop();
  });

  it("subscribes over a listen stream, hears updates, completes, and unsubscribes", async () => {
    const u = updates();
    conn = await openConnection({ url: modern.url, transport: "streamable-http", headers: {}, timeoutMs: 20_000, onResourceUpdated: u.onResourceUpdated });
    expect(conn.info.era).toBe("modern");
    expect((await conn.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "language", value: "E" } })).values).toEqual([
      "English",
      "Esperanto",
    ]);
    const touch = (uri: string) => conn!.request("tools/call", { name: "touch", arguments: { uri } });
    await conn.subscribeResource("memo://note");
    expect(conn.resourceSubscriptions).toEqual(["memo://note"]);
    await touch("memo://note");
    await u.next("memo://note");

    await conn.unsubscribeResource("memo://note");
    await conn.subscribeResource("memo://other");
    expect(conn.resourceSubscriptions).toEqual(["memo://other"]);
    const mark = u.seen.length;
    await touch("memo://note");
    await touch("memo://other");
    await u.next("memo://other", mark);
    expect(u.seen.slice(mark)).toEqual(["memo://other"]);
  });
});
