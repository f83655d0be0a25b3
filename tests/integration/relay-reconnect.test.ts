import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { openEvents, type EventStream } from "../support/events";
import { EVERYTHING, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

/** Issue 15 §4: a paired agent that comes back reopens its servers' sessions without a click. */
describe("an agent that restarts brings its servers' sessions back", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let events: EventStream;
  let agent: RunningAgent | undefined;
  let home: string;
  let agentId: string;
  let id: string;
  const config = { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } };
  const status = async () => (await api("GET", `/api/v1/servers/${id}`)).body.server.status as string;
  const sessions = async () => (await api("GET", `/api/v1/servers/${id}/sessions`)).body.items as { id: string; status: string }[];
  const restartAgent = async () => {
    await agent!.stop("SIGKILL");
    await waitForAgent(api, agentId, "offline");
    await waitFor(async () => (await status()) === "offline");
    agent = startAgent(home, config, { grace: 0 });
    await waitForAgent(api, agentId, "online", 20_000, () => agent!.output());
  };

  beforeAll(async () => {
    sb = await startConsole();
    const owner = await setupOwner(sb.url);
    api = owner.api;
    events = await openEvents(sb.url, owner.token);
    const paired = await pairNewAgent(api, sb.url, "comes-back");
    home = paired.home;
    agentId = paired.agentId;
    agent = startAgent(home, config, { grace: 0 });
    await waitForAgent(api, agentId, "online", 20_000, () => agent!.output());
    id = await serverId(api, "everything");
  });
  afterAll(async () => {
    events?.close();
    await agent?.stop("SIGKILL");
    await sb?.stop();
  });

  it("reconnects a server that had a session, showing 'reconnecting' in between, with no Connect", async () => {
    const call = await api("POST", `/api/v1/servers/${id}/tools/call`, { name: "echo", arguments: { message: "before" } });
    expect(call.body.call.status).toBe("ok");
    const before = (await sessions())[0]!;
    const from = events.events.length;
    await restartAgent();
    await events.next((e) => e.type === "server" && e.serverId === id && e.status === "reconnecting", { from });
    await events.next((e) => e.type === "server" && e.serverId === id && e.status === "connected", { from });
    expect(await status()).toBe("connected");
    const [latest] = await sessions();
    expect(latest!.id).not.toBe(before.id);
    expect(latest!.status).toBe("connected");
  });

  it("leaves a server someone disconnected alone", async () => {
    expect((await api("POST", `/api/v1/servers/${id}/disconnect`)).status).toBe(204);
    const count = (await sessions()).length;
    const logged = sb.logs().length;
    await restartAgent();
    await waitFor(() => sb.logs().slice(logged).includes("everything: its agent is back; the session stays closed"));
    expect(await status()).toBe("disconnected");
    expect(await sessions()).toHaveLength(count);
  });
});
