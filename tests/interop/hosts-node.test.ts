import { createMCPClient } from "@ai-sdk/mcp";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { echoInHistory, mcporter, outcome, problem, SUPERGATEWAY, tempDir, type Api } from "./support";

// The Node hosts real teams run (issue 40), against the console's gateway in front of
// server-everything: SDK 1.x over legacy HTTP+SSE, the AI SDK, LangChain, supergateway and mcporter.
// Each lists, calls, finds its call in history and is told clearly about a bad call (docs/interop.md).
describe("interoperability: Node hosts against the gateway", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let everything: RunningServer;
  let url: string;
  let aggregated: string;
  let token: string;
  let serverId: string;
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const inHistory = (message: string, client: RegExp) => echoInHistory(api, serverId, message, client);
  const BAD_ARGUMENTS = /-32602[\s\S]*arguments\/message|arguments\/message[\s\S]*must be string/;

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    ({ api } = await setupOwner(sb.url));
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    const { path: endpoint } = (await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true })).body.exposure;
    token = (await api("POST", "/api/v1/tokens", { name: "interop-node-hosts", scopes: ["gateway"] })).body.secret;
    url = `${sb.url}${endpoint}`;
    aggregated = url.slice(0, url.lastIndexOf("/"));
  });
  afterAll(async () => {
    await everything?.stop();
    await sb?.stop();
  });

  // Hosts that speak only the legacy HTTP+SSE transport, given the endpoint the Gateway tab shows.
  for (const [endpoint, echo] of [["its server endpoint", "echo"], ["the aggregated endpoint", "everything__echo"]] as const) {
    describe.concurrent(`the TypeScript SDK 1.32.2 client with SSEClientTransport, on ${endpoint}`, () => {
      let client: Promise<Client>;
      const host = () =>
        (client ??= (async () => {
          const c = new Client({ name: `interop-sdk1-sse-${echo}`, version: "1.0.0" });
          await c.connect(new SSEClientTransport(new URL(endpoint === "its server endpoint" ? url : aggregated), { requestInit: { headers: auth() } }));
          return c;
        })());
      afterAll(async () => (await client?.catch(() => undefined))?.close());

      it("lists and calls; the call is in history as a gateway call with the host's name", async () => {
        const c = await host();
        expect((await c.listTools()).tools.map((t) => t.name)).toContain(echo);
        expect((await c.callTool({ name: echo, arguments: { message: `sdk1 sse ${echo}` } })).content).toEqual([{ type: "text", text: `Echo: sdk1 sse ${echo}` }]);
        await inHistory(`sdk1 sse ${echo}`, new RegExp(`^interop-sdk1-sse-${echo} 1\\.0\\.0$`));
      });
      it("gets a JSON-RPC error naming the problem for an unknown tool and for bad arguments", async () => {
        const c = await host();
        expect(problem(await outcome(c.callTool({ name: "no_such_tool", arguments: {} })))).toMatch(/no_such_tool/);
        await expect(c.callTool({ name: echo, arguments: { message: 42 } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("arguments/message") });
      });
    });
  }

  for (const type of ["sse", "http"] as const) {
    describe.concurrent(`the AI SDK's MCP client (@ai-sdk/mcp 1.0.102), transport type '${type}'`, () => {
      let client: ReturnType<typeof createMCPClient>;
      const host = () => (client ??= createMCPClient({ transport: { type, url, headers: auth() } }));
      afterAll(async () => (await client?.catch(() => undefined))?.close());

      it("offers the tools to a model and runs one; the call is in history as a gateway call with the host's name", async () => {
        const tools = await (await host()).tools();
        expect(Object.keys(tools)).toContain("echo");
        const result = await tools.echo!.execute!({ message: `ai-sdk ${type}` }, { toolCallId: "call-1", messages: [] });
        expect(result).toMatchObject({ content: [{ type: "text", text: `Echo: ai-sdk ${type}` }] });
        await inHistory(`ai-sdk ${type}`, /^ai-sdk-mcp-client /);
      });
      it("is told the problem for an unknown tool and for bad arguments", async () => {
        const c = await host();
        // 1.x offers calls through the tools it hands a model; its own callTool (not exported in its types) takes `args`.
        const call = (c as unknown as { callTool(req: { name: string; args: unknown }): Promise<unknown> }).callTool.bind(c);
        expect(problem(await outcome(call({ name: "no_such_tool", args: {} })))).toMatch(/no_such_tool/);
        const tools = await c.tools();
        const bad = await outcome(Promise.resolve(tools.echo!.execute!({ message: 42 }, { toolCallId: "call-2", messages: [] })));
        expect(problem(bad)).toMatch(BAD_ARGUMENTS);
      });
    });
  }

  describe.concurrent("LangChain's MCP adapters (@langchain/mcp-adapters 1.1.4), Streamable HTTP", () => {
    let client: MultiServerMCPClient | undefined;
    const host = () => (client ??= new MultiServerMCPClient({ mcpServers: { switchboard: { transport: "http", url, headers: auth() } }, throwOnLoadError: true }));
    afterAll(() => client?.close());

    it("loads the tools as LangChain tools and invokes one; the call is in history as a gateway call with the host's name", async () => {
      const tools = await host().getTools();
      const echo = tools.find((t) => t.name === "echo" || t.name.endsWith("__echo"));
      expect(echo, tools.map((t) => t.name).join(", ")).toBeDefined();
      expect(JSON.stringify(await echo!.invoke({ message: "langchain" }))).toContain("Echo: langchain");
      await inHistory("langchain", /^@langchain\/mcp-adapters 1\.1\.4$/);
    });
    it("is told the problem for an unknown tool and for bad arguments", async () => {
      const tools = await host().getTools();
      const echo = tools.find((t) => t.name === "echo" || t.name.endsWith("__echo"))!;
      // LangChain checks a tool's input against its schema itself: nothing reaches the gateway.
      expect(String((await outcome(echo.invoke({ message: 42 } as never))).error)).toMatch(/did not match expected schema/);
      const raw = await host().getClient("switchboard");
      expect(problem(await outcome(raw!.callTool({ name: "no_such_tool", arguments: {} })))).toMatch(/no_such_tool/);
    });
  });

  // supergateway as a host: the gateway's Streamable HTTP endpoint bridged to stdio for a stdio-only host.
  describe.concurrent("supergateway 4.0.0 bridging the gateway to stdio, driven by an SDK stdio client", () => {
    let client: Promise<ClientV2>;
    const host = () =>
      (client ??= (async () => {
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: [SUPERGATEWAY, "--streamableHttp", url, "--oauth2Bearer", token, "--logLevel", "none"],
          env: { PATH: process.env.PATH ?? "", HOME: tempDir("supergateway") },
          stderr: "pipe",
        });
        const c = new ClientV2({ name: "interop-supergateway-host", version: "1.0.0" });
        await c.connect(transport);
        return c;
      })());
    afterAll(async () => (await client?.catch(() => undefined))?.close());

    it("lists and calls; the call is in history as a gateway call with the stdio host's name", async () => {
      const c = await host();
      expect((await c.listTools()).tools.map((t) => t.name)).toContain("echo");
      expect((await c.callTool({ name: "echo", arguments: { message: "supergateway" } })).content).toEqual([{ type: "text", text: "Echo: supergateway" }]);
      await inHistory("supergateway", /^interop-supergateway-host 1\.0\.0$/);
    });
    it("passes the gateway's error through for an unknown tool and for bad arguments", async () => {
      const c = await host();
      expect(problem(await outcome(c.callTool({ name: "no_such_tool", arguments: {} })))).toMatch(/no_such_tool/);
      expect(problem(await outcome(c.callTool({ name: "echo", arguments: { message: 42 } })))).toMatch(BAD_ARGUMENTS);
    });
  });

  describe.concurrent("mcporter 0.9.0 (a CLI host, one session per command)", () => {
    it("lists and calls; the call is in history as a gateway call with the host's name", async () => {
      const listed = await mcporter(url, token, ["list", "switchboard", "--json"]);
      expect(listed.code, listed.stderr + listed.stdout).toBe(0);
      expect(JSON.parse(listed.stdout).tools.map((t: { name: string }) => t.name)).toContain("echo");
      const called = await mcporter(url, token, ["call", "switchboard.echo", "message=mcporter", "--output", "json"]);
      expect(called.code, called.stderr + called.stdout).toBe(0);
      expect(called.stdout).toContain("Echo: mcporter");
      await inHistory("mcporter", /^mcporter /);
    });
    it("prints the JSON-RPC error for bad arguments, and names an unknown tool", async () => {
      // key=value arguments are coerced to the schema's types: a JSON payload sends the number as it is.
      // 0.9.0 exits 0 after printing a call's error (0.12 exits 1).
      const bad = await mcporter(url, token, ["call", "switchboard.echo", "--args", '{"message":42}', "--output", "json"]);
      expect(bad.stdout + bad.stderr).toMatch(BAD_ARGUMENTS);
      const unknown = await mcporter(url, token, ["call", "switchboard.no_such_tool", "--output", "json"]);
      expect(unknown.stdout + unknown.stderr).toMatch(/no_such_tool/);
    });
  });
});
