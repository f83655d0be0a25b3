import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, startFixture, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];
type Caps = Pick<ClientCapabilities, "elicitation" | "sampling" | "roots">;
type Seen = { method: string; params: any }[];

const ROOT = { uri: "file:///srv/switchboard-root", name: "team root" };

// Modern-era hosts (2026-07-28, no sessions) whose servers ask them for input: the bridge turns each
// server request into an `input_required` result and the host's retry into the server's answer.
describe("the gateway passes sampling, elicitation and roots to modern-era hosts (input_required)", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let everything: RunningServer;
  let modern: RunningServer;
  const ids: Record<string, string> = {};
  const endpoints: Record<string, string> = {};
  let slug: string;
  let token: string;
  const open: Client[] = [];

  beforeAll(async () => {
    [sb, everything, modern] = await Promise.all([
      startConsole({ env: { SWITCHBOARD_GATEWAY_INPUT_MS: "2500" } }),
      startEverything("streamableHttp"),
      startFixture("modern-input-server.ts"),
    ]);
    const owner = await setupOwner(sb.url);
    ({ api } = owner);
    slug = owner.workspace.slug;
    for (const [name, url] of [
      ["everything", everything.url],
      ["modern", modern.url],
    ] as const) {
      ids[name] = (await api("POST", "/api/v1/servers", { name, url })).body.server.id;
      const exposure = await api("PUT", `/api/v1/servers/${ids[name]}/exposure`, { enabled: true });
      endpoints[name] = `${sb.url}${exposure.body.exposure.path}`;
    }
    token = (await api("POST", "/api/v1/tokens", { name: "mrtr", scopes: ["gateway"] })).body.secret;
  });
  afterAll(async () => {
    if (process.env.DEBUG_CONSOLE_LOGS) console.log(sb?.logs());
    await Promise.allSettled(open.map((c) => c.close()));
    await sb?.stop();
    await Promise.allSettled([everything?.stop(), modern?.stop()]);
  });

  /** An SDK client pinned to 2026-07-28 acting as host, answering what it declares and noting each request. */
  const host = async (url: string, capabilities: Caps, seen: Seen = [], { as = token, manual = false, legacy = false } = {}) => {
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${as}` } } });
    const client = new Client(
      { name: "input-host", version: "1.0.0" },
      { capabilities, ...(legacy ? {} : { versionNegotiation: { mode: { pin: "2026-07-28" } } }), ...(manual ? { inputRequired: { autoFulfill: false } } : {}) },
    );
    if (capabilities.elicitation) {
      client.setRequestHandler("elicitation/create", async (request) => {
        seen.push({ method: "elicitation/create", params: request.params });
        return (request.params as { mode?: string }).mode === "url" ? { action: "accept" } : { action: "accept", content: { name: "Ada Lovelace", ok: true, note: "from the host" } };
      });
    }
    if (capabilities.sampling) {
      client.setRequestHandler("sampling/createMessage", async (request) => {
        seen.push({ method: "sampling/createMessage", params: request.params });
        return { role: "assistant", content: { type: "text", text: "the host's model says hi" }, model: "host-model" };
      });
    }
    if (capabilities.roots) {
      client.setRequestHandler("roots/list", async (request) => {
        seen.push({ method: "roots/list", params: request.params });
        return { roots: [ROOT] };
      });
    }
    await client.connect(transport);
    open.push(client);
    return client;
  };
  const all: Caps = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
  const text = (result: any) => (result.content as { text: string }[]).map((c) => c.text).join("\n");

  /** The one finished Call row of that tool (and that there is exactly one). */
  const onlyCall = async (serverId: string, name: string) => {
    let rows: any[] = [];
    await waitFor(async () => {
      rows = ((await api("GET", `/api/v1/calls?origin=gateway&serverId=${serverId}`)).body.items as any[]).filter((c) => c.name === name);
      return rows.length > 0 && rows.every((c) => c.status !== "pending");
    });
    expect(rows).toHaveLength(1);
    return (await api("GET", `/api/v1/calls/${rows[0].id}`)).body.call;
  };

  it("elicitation (form and URL mode), sampling and roots of a legacy-era server reach the host and its answers the server", async () => {
    const seen: Seen = [];
    const client = await host(endpoints.everything!, all, seen);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["trigger-elicitation-request", "trigger-sampling-request", "get-roots-list", "trigger-url-elicitation"]));

    const elicited = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(text(elicited)).toContain("- Name: Ada Lovelace");
    const form = seen.find((s) => s.method === "elicitation/create")!;
    expect(form.params.requestedSchema.required).toEqual(["name"]);
    const call = await onlyCall(ids.everything!, "trigger-elicitation-request");
    expect(call).toMatchObject({ origin: "gateway", status: "ok", client: "input-host 1.0.0" });
    expect(JSON.stringify(call.result)).toContain("Ada Lovelace");

    const sampled = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "say hi", maxTokens: 20 } });
    expect(text(sampled)).toContain("the host's model says hi");
    expect(seen.find((s) => s.method === "sampling/createMessage")!.params.messages[0].content.text).toContain("say hi");
    expect((await onlyCall(ids.everything!, "trigger-sampling-request")).result.content[0].text).toContain("the host's model says hi");

    const rooted = await client.callTool({ name: "get-roots-list", arguments: {} });
    expect(text(rooted)).toContain(ROOT.uri);
    expect(seen.some((s) => s.method === "roots/list")).toBe(true);
    expect((await onlyCall(ids.everything!, "get-roots-list")).status).toBe("ok");

    const url = "http://127.0.0.1:9/consent";
    const viaUrl = await client.callTool({ name: "trigger-url-elicitation", arguments: { url, message: "Open it" } });
    expect(text(viaUrl)).toContain("User completed the URL elicitation flow");
    expect(seen.find((s) => s.method === "elicitation/create" && s.params.mode === "url")!.params).toMatchObject({ mode: "url", url, message: "Open it" });
    expect((await onlyCall(ids.everything!, "trigger-url-elicitation")).status).toBe("ok");
  });

  it("the same through a modern-era server, whose input_required rounds the console fulfils upstream", async () => {
    const seen: Seen = [];
    const client = await host(endpoints.modern!, all, seen);
    expect(text(await client.callTool({ name: "confirm", arguments: { what: "deploy" } }))).toBe("confirmed ok=true note=from the host");
    expect(seen[0]).toMatchObject({ method: "elicitation/create", params: { message: "Really deploy?" } });
    expect(text(await client.callTool({ name: "ask-model", arguments: { prompt: "hello model" } }))).toContain("the host's model says hi");
    expect(text(await client.callTool({ name: "list-roots", arguments: {} }))).toContain(ROOT.uri);
    const call = await onlyCall(ids.modern!, "confirm");
    expect(call).toMatchObject({ status: "ok", params: { name: "confirm", arguments: { what: "deploy" } } });
    expect(call.result.content[0].text).toBe("confirmed ok=true note=from the host");
  });

  it("declines for a host that did not declare the capability, and hides the capability's tools from a host that declared none", async () => {
    const seen: Seen = [];
    const samplingOnly = await host(endpoints.modern!, { sampling: {} }, seen);
    expect(text(await samplingOnly.callTool({ name: "confirm", arguments: { what: "drop the table" } }))).toBe("not confirmed: decline");
    const everythingHost = await host(endpoints.everything!, { sampling: {} }, seen);
    expect(text(await everythingHost.callTool({ name: "trigger-elicitation-request", arguments: {} }))).toContain("User declined");
    expect(seen).toEqual([]);
    const none = await host(endpoints.everything!, {});
    expect((await none.listTools()).tools.map((t) => t.name)).not.toContain("trigger-elicitation-request");
    await expect(none.callTool({ name: "trigger-elicitation-request", arguments: {} })).rejects.toThrow(/not offered/);
  });

  it("refuses a forged or another token's requestState, and times out a call whose host never comes back", async () => {
    const manual = await host(endpoints.modern!, all, [], { manual: true });
    const params = { name: "confirm", arguments: { what: "wait forever" } };
    const first = (await manual.request({ method: "tools/call", params }, { allowInputRequired: true })) as any;
    expect(first.resultType).toBe("input_required");
    expect(Object.values(first.inputRequests)).toEqual([expect.objectContaining({ method: "elicitation/create" })]);
    const answer = { [Object.keys(first.inputRequests)[0]!]: { action: "accept", content: { ok: true } } };

    const forged = `${first.requestState.slice(0, -4)}AAAA`;
    await expect(manual.request({ method: "tools/call", params: { ...params, inputResponses: answer, requestState: forged } }, { allowInputRequired: true })).rejects.toThrow(/Invalid or expired requestState/);
    const otherToken = (await api("POST", "/api/v1/tokens", { name: "someone else", scopes: ["gateway"] })).body.secret as string;
    const other = await host(endpoints.modern!, all, [], { as: otherToken, manual: true });
    await expect(other.request({ method: "tools/call", params: { ...params, inputResponses: answer, requestState: first.requestState } }, { allowInputRequired: true })).rejects.toThrow(/Invalid or expired requestState/);

    // Never answered: past SWITCHBOARD_GATEWAY_INPUT_MS the server is refused and the call recorded as timed out.
    let call: any;
    await waitFor(async () => {
      const rows = ((await api("GET", `/api/v1/calls?origin=gateway&serverId=${ids.modern}`)).body.items as any[]).filter((c) => c.name === "confirm" && c.status === "timeout");
      call = rows[0];
      return rows.length === 1;
    });
    expect((await api("GET", `/api/v1/calls/${call.id}`)).body.call.error.message).toMatch(/host did not answer the server's elicitation\/create within 2500 ms/);
    await expect(manual.request({ method: "tools/call", params: { ...params, inputResponses: answer, requestState: first.requestState } }, { allowInputRequired: true })).rejects.toThrow(/No call is waiting for this requestState/);
  });

  it("passes progress to the host and ends the upstream call when the host cancels", async () => {
    // Without roots: server-everything's own roots/list right after initialize would be a round of its own.
    const client = await host(endpoints.everything!, { elicitation: {}, sampling: {} });
    const controller = new AbortController();
    const progress: number[] = [];
    const running = client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 20, steps: 20 } }, {
      signal: controller.signal,
      onprogress: (p: { progress: number }) => {
        progress.push(p.progress);
        controller.abort();
      },
    });
    await expect(running).rejects.toThrow();
    expect(progress).toEqual([1]);
    const call = await onlyCall(ids.everything!, "trigger-long-running-operation");
    expect(call.status, JSON.stringify(call.error)).toBe("cancelled");
  });

  it("a legacy-era host on the aggregated endpoint is asked over its session (the SDK's legacy shim)", async () => {
    const seen: Seen = [];
    const client = await host(`${sb.url}/mcp/${encodeURIComponent(slug)}`, all, seen, { legacy: true });
    expect(client.getNegotiatedProtocolVersion()).not.toBe("2026-07-28");
    const name = (await client.listTools()).tools.map((t) => t.name).find((n) => n.endsWith("__ask-model"))!;
    expect(text(await client.callTool({ name, arguments: { prompt: "legacy hello" } }))).toContain("the host's model says hi");
    expect(seen).toEqual([expect.objectContaining({ method: "sampling/createMessage" })]);
    expect(seen[0]!.params.messages[0].content.text).toBe("legacy hello");
  });

  it("works on the aggregated endpoint too", async () => {
    const seen: Seen = [];
    const okConfirms = async () => ((await api("GET", `/api/v1/calls?origin=gateway&serverId=${ids.modern}`)).body.items as any[]).filter((c) => c.name === "confirm" && c.status === "ok").length;
    const before = await okConfirms();
    const client = await host(`${sb.url}/mcp/${encodeURIComponent(slug)}`, all, seen);
    const name = (await client.listTools()).tools.map((t) => t.name).find((n) => n.endsWith("__confirm"))!;
    expect(name).toBeDefined();
    expect(text(await client.callTool({ name, arguments: { what: "merge" } }))).toBe("confirmed ok=true note=from the host");
    expect(seen).toEqual([expect.objectContaining({ method: "elicitation/create", params: expect.objectContaining({ message: "Really merge?" }) })]);
    await waitFor(async () => (await okConfirms()) === before + 1);
  });
});
