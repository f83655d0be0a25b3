import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { callTool } from "./relay-support";

/** Issue 11, item 11: stored calls per workspace. */
describe("stored calls quota", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole({ env: { SWITCHBOARD_MAX_CALLS: "3" } }), startEverything("streamableHttp")]);
  });
  afterAll(async () => {
    await everything?.stop();
    await sb?.stop();
  });

  it("records calls up to the limit, then refuses with the limit and sends nothing", async () => {
    const { api } = await setupOwner(sb.url);
    const id = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url, transport: "streamable-http" })).body.server.id;
    for (const message of ["one", "two", "three"]) {
      expect((await callTool(api, id, "echo", { message })).body.call.status).toBe("ok");
    }
    const over = await callTool(api, id, "echo", { message: "four" });
    expect(over.status).toBe(409);
    expect(over.body.error.details).toEqual({ quota: "calls", limit: 3 });
    expect(over.body.error.message).toMatch(/at most 3 calls/);
    const history = (await api("GET", `/api/v1/calls?serverId=${id}`)).body.items as { name: string; params?: unknown }[];
    expect(history).toHaveLength(3);
  });
});
