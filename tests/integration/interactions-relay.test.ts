import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { openEvents, type EventStream } from "../support/events";
import { everythingStdio } from "../support/servers";
import { nextPending, resultText } from "./interactions-support";
import { pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

describe("server-initiated requests reach a person (agent-relayed stdio server-everything)", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let events: EventStream;
  let agent: RunningAgent | undefined;
  let id: string;
  let agentId: string;
  // Directories on "the agent's machine": the config allows `allowed` only.
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "sb-roots-"));
  const allowed = path.join(base, "allowed");
  fs.mkdirSync(path.join(allowed, "project"), { recursive: true });
  fs.mkdirSync(path.join(base, "elsewhere"));
  fs.symlinkSync(path.join(base, "elsewhere"), path.join(allowed, "escape"));
  const uri = (p: string) => pathToFileURL(p).href;
  const logs = () => `--- agent ---\n${agent?.output()}\n--- console ---\n${sb.logs().slice(-4000)}`;

  beforeAll(async () => {
    sb = await startConsole();
    const owner = await setupOwner(sb.url);
    api = owner.api;
    events = await openEvents(sb.url, owner.token);
    const paired = await pairNewAgent(api, sb.url, "relay-interactions");
    agentId = paired.agentId;
    agent = startAgent(paired.home, { mcpServers: { everything: { ...everythingStdio(), roots: [allowed] } } });
    await waitForAgent(api, agentId, "online", 20_000, logs);
    id = await serverId(api, "everything");
  });
  afterAll(async () => {
    events?.close();
    await agent?.stop("SIGKILL");
    await sb?.stop();
  });

  const call = (name: string, args: Record<string, unknown> = {}) => api("POST", `/api/v1/servers/${id}/tools/call`, { name, arguments: args });

  it("declares the capabilities through the relay, so the trigger tools are listed", async () => {
    const tools = (await api("GET", `/api/v1/servers/${id}/tools`)).body.items.map((t: { name: string }) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["trigger-elicitation-request", "trigger-url-elicitation", "trigger-sampling-request", "get-roots-list"]));
  });

  it("elicitation form: accept carries the content back to the stdio server; decline too", async () => {
    const from = events.events.length;
    const running = call("trigger-elicitation-request");
    const pending = await nextPending(api, events, from);
    expect(pending).toMatchObject({ kind: "elicitation-form", serverName: "everything", status: "pending", attended: true });
    const ok = await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "accept", content: { name: "Relay Rita", integer: 9 } });
    expect(ok.status).toBe(200);
    const text = resultText((await running).body.call);
    expect(text).toContain("Name: Relay Rita");
    expect(text).toContain("Favorite Integer: 9");

    const from2 = events.events.length;
    const declining = call("trigger-elicitation-request");
    const second = await nextPending(api, events, from2);
    await api("POST", `/api/v1/interactions/${second.id}/respond`, { action: "decline" });
    expect(resultText((await declining).body.call)).toContain("declined");
  });

  it("URL elicitation: consent answers accept", async () => {
    const from = events.events.length;
    const running = call("trigger-url-elicitation", { url: "https://example.com/relay-consent" });
    const pending = await nextPending(api, events, from);
    expect(pending).toMatchObject({ kind: "elicitation-url", request: { mode: "url", url: "https://example.com/relay-consent" } });
    await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "accept" });
    expect(resultText((await running).body.call)).toContain("completed the URL elicitation");
  });

  it("sampling: the person's reply is the completion; a decline is an error", async () => {
    const from = events.events.length;
    const running = call("trigger-sampling-request", { prompt: "Relay hi", maxTokens: 20 });
    const pending = await nextPending(api, events, from);
    expect(pending.kind).toBe("sampling");
    expect(JSON.stringify(pending.request.messages)).toContain("Relay hi");
    await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "reply", text: "Hello through the relay" });
    expect(resultText((await running).body.call)).toContain("Hello through the relay");

    const from2 = events.events.length;
    const declining = call("trigger-sampling-request", { prompt: "no" });
    const second = await nextPending(api, events, from2);
    await api("POST", `/api/v1/interactions/${second.id}/respond`, { action: "decline" });
    const declined = (await declining).body.call;
    expect(JSON.stringify(declined)).toMatch(/rejected/i);
  });

  it("roots: roots/list answers the stored roots; a change reaches the stdio server as list_changed", async () => {
    const project = uri(path.join(allowed, "project"));
    await api("PATCH", `/api/v1/servers/${id}`, { roots: [{ uri: project, name: "project" }] });
    // server-everything re-reads its roots after list_changed, asynchronously: ask until it has.
    let first = "";
    await waitFor(async () => {
      first = resultText((await call("get-roots-list")).body.call);
      return first.includes(project);
    }, 15_000, () => first);
    expect(first).toContain(project);
    await api("PATCH", `/api/v1/servers/${id}`, { roots: [{ uri: uri(allowed), name: "all" }] });
    let second = "";
    await waitFor(async () => {
      second = resultText((await call("get-roots-list")).body.call);
      return !second.includes(project);
    }, 15_000, () => second);
    expect(second).toContain(`URI: ${uri(allowed)}\n`);
  });

  it("roots: the agent passes on only existing directories its config allows, and reports the rest", async () => {
    const project = uri(path.join(allowed, "project"));
    const refused = [uri(path.join(base, "elsewhere")), uri(path.join(allowed, "missing")), uri(path.join(allowed, "escape"))];
    await api("PATCH", `/api/v1/servers/${id}`, { roots: [project, ...refused].map((u) => ({ uri: u })) });
    // server-everything re-reads roots after list_changed, through the relay: wait until it has.
    let text = "";
    await waitFor(async () => {
      text = resultText((await call("get-roots-list")).body.call);
      return text.includes(project);
    }, 15_000, () => text);
    expect(text).toContain("(1 total)");
    expect(text).toContain(project);
    for (const u of refused) expect(text).not.toContain(u);
    const server = (await api("GET", `/api/v1/agents/${agentId}`)).body.agent.servers.find((s: { name: string }) => s.name === "everything");
    expect(server.rootsRefused.map((r: { uri: string; reason: string }) => [r.uri, r.reason])).toEqual([
      [refused[0], "not allowed by the agent's config for this server"],
      [refused[1], "no such directory on the agent's machine"],
      [refused[2], "not allowed by the agent's config for this server"],
    ]);
    expect(agent!.output()).toMatch(/refused root .*elsewhere/);
  });
});
