import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { expect, test } from "@playwright/test";
import { HOST_REDIRECT, TestHost } from "../support/oauth-host";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { EVERYTHING, ROOT, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "../integration/relay-support";

// Issue 14's whole story: an MCP host (the official SDK client) signs a person in with OAuth
// (registration, PKCE, consent in a real browser) and uses a stdio server on a paired agent
// through the gateway: lists, calls, progress, a cancelled call, an elicitation it answers.
// Each call lands in the console's history with origin "gateway".

const TAP = path.join(ROOT, "tests/fixtures/stdio-tap.mjs");
const LONG = "trigger-long-running-operation";


let sb: ConsoleHandle;
let agent: RunningAgent | undefined;
let api: Awaited<ReturnType<typeof setupOwner>>["api"];
let owner: { email: string; password: string };
let endpoint: string;
let id: string;
const tap = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-tap-")), "stdin.ndjson");
const written = () => (fs.existsSync(tap) ? fs.readFileSync(tap, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []);

test.beforeAll(async () => {
  sb = await startConsole();
  const setup = await setupOwner(sb.url);
  api = setup.api;
  owner = { email: setup.email, password: setup.password };
  const paired = await pairNewAgent(api, sb.url, "laptop");
  agent = startAgent(paired.home, { mcpServers: { everything: { command: process.execPath, args: [TAP, tap, process.execPath, EVERYTHING, "stdio"] } } });
  await waitForAgent(api, paired.agentId, "online", 20_000, () => agent!.output());
  id = await serverId(api, "everything");
  endpoint = `${sb.url}${(await api("PUT", `/api/v1/servers/${id}/exposure`, { enabled: true })).body.exposure.path}`;
});
test.afterAll(async () => {
  await agent?.stop("SIGKILL");
  await sb?.stop();
});

test("an MCP host signs in with OAuth and uses a stdio server on a paired agent through the gateway", async ({ page }) => {
  const host = new TestHost();
  const elicited: unknown[] = [];
  const connect = async () => {
    const client = new Client({ name: "test-host", version: "2.0.0" }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler("elicitation/create", async (request) => (elicited.push(request.params), { action: "accept", content: { name: "Lin" } }));
    const transport = new StreamableHTTPClientTransport(new URL(endpoint), { authProvider: host });
    await client.connect(transport);
    return { client, transport };
  };

  // First contact: 401 → discovery → dynamic registration → the person is sent to the console.
  await expect(connect()).rejects.toThrow(UnauthorizedError);
  expect(host.info?.client_id).toBeTruthy();
  expect(host.authorizationUrl?.searchParams.get("code_challenge_method")).toBe("S256");
  expect(host.authorizationUrl?.searchParams.get("resource")).toBe(endpoint);

  let callback: URL | undefined;
  await page.route(`${HOST_REDIRECT}**`, (route) => {
    callback = new URL(route.request().url());
    return route.fulfill({ contentType: "text/plain", body: "back in the host" });
  });
  await page.goto(host.authorizationUrl!.href);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/oauth\/consent\?/);
  await expect(page.getByRole("region", { name: "Endpoints" })).toContainText("everything");
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page.getByText("back in the host")).toBeVisible();

  const pending = new StreamableHTTPClientTransport(new URL(endpoint), { authProvider: host });
  await pending.finishAuth(callback!.searchParams);
  expect(host.saved?.access_token).toBeTruthy();

  const { client } = await connect();
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("echo");
    expect((await client.callTool({ name: "echo", arguments: { message: "signed in" } })).content).toEqual([{ type: "text", text: "Echo: signed in" }]);

    const steps: number[] = [];
    await client.callTool({ name: LONG, arguments: { duration: 1, steps: 2 } }, { onprogress: (p) => steps.push(p.progress) });
    expect(steps).toEqual([1, 2]);

    const controller = new AbortController();
    await expect(client.callTool({ name: LONG, arguments: { duration: 30, steps: 30 } }, { signal: controller.signal, onprogress: () => controller.abort() })).rejects.toThrow();
    const sent = written().filter((m) => m.method === "tools/call" && m.params?.name === LONG).at(-1);
    await waitFor(() => written().some((m) => m.method === "notifications/cancelled" && m.params?.requestId === sent.id), 10_000);

    const answered = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(elicited).toHaveLength(1);
    expect(JSON.stringify(answered.content)).toContain("Lin");
  } finally {
    await client.close();
  }

  // Every call is in history, by the person who consented, from this host.
  let calls: { name: string; status: string; userName: string; id: string }[] = [];
  await waitFor(async () => {
    calls = (await api("GET", "/api/v1/calls?origin=gateway")).body.items;
    return calls.length === 4 && calls.every((c) => c.status !== "pending");
  });
  expect(calls.map((c) => `${c.name}:${c.status}`).sort()).toEqual(["echo:ok", `${LONG}:cancelled`, `${LONG}:ok`, "trigger-elicitation-request:ok"].sort());
  expect(calls.every((c) => c.userName === "Ada Owner")).toBe(true);
  const one = (await api("GET", `/api/v1/calls/${calls[0]!.id}`)).body.call;
  expect(one.client).toBe("test-host 2.0.0");

  await page.goto(`${sb.url}/history?origin=gateway`);
  await expect(page.getByTestId("history-row").first().getByTestId("history-origin")).toHaveText("gateway");

  // An admin revokes the host's access: its token stops working at once, refresh included.
  const connection = (await api("GET", `/api/v1/servers/${id}/gateway/clients`)).body.items.find((c: { clientName: string }) => c.clientName === "test-host");
  expect(connection).toMatchObject({ via: "oauth", userName: "Ada Owner" });
  expect((await api("DELETE", `/api/v1/servers/${id}/gateway/clients/${connection.id}?revoke=true`)).status).toBe(204);
  const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "again", version: "1" } } };
  const again = await fetch(endpoint, {
    method: "POST",
    headers: { authorization: `Bearer ${host.saved!.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(initialize),
  });
  expect(again.status).toBe(401);
  expect(again.headers.get("www-authenticate")).toContain('error="invalid_token"');
});
