import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { echoInHistory, INSPECTOR_CLI, MCP_REMOTE, outcome, problem, PYTHON, ROOT, run, tempDir, type Api } from "./support";

const PY_HOST = path.join(ROOT, "tests/interop/fixtures/py_host.py");

// Hosts nobody on this team wrote, against the console's gateway in front of server-everything:
// each lists, calls, finds its call in history (origin gateway, the host's name) and gets a clear
// JSON-RPC error for a bad call. The rows are independent and run side by side (docs/interop.md).
describe("interoperability: hosts against the gateway", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let everything: RunningServer;
  let url: string;
  let token: string;
  let serverId: string;

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    ({ api } = await setupOwner(sb.url));
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    const { path: endpoint } = (await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true })).body.exposure;
    token = (await api("POST", "/api/v1/tokens", { name: "interop-hosts", scopes: ["gateway"] })).body.secret;
    url = `${sb.url}${endpoint}`;
  });
  afterAll(async () => {
    await everything?.stop();
    await sb?.stop();
  });

  const inHistory = (message: string, client: RegExp) => echoInHistory(api, serverId, message, client);

  for (const mode of ["legacy", "auto"] as const) {
    describe.concurrent(`the Python mcp client (mode=${mode})`, () => {
      let report: Promise<any>;
      const host = () =>
        (report ??= run(PYTHON, [PY_HOST, url, token, mode, "echo", JSON.stringify({ message: `python ${mode}` })]).then((r) => {
          if (r.code !== 0) throw new Error(`py_host exited ${r.code}:\n${r.stderr}`);
          return JSON.parse(r.stdout);
        }));

      it("lists and calls; the call is in history as a gateway call with the host's name", async () => {
        const { protocolVersion, tools, call } = await host();
        expect(protocolVersion).toMatch(mode === "legacy" ? /^2025-/ : /^2026-/);
        expect(tools).toContain("echo");
        expect(call).toEqual({ result: expect.objectContaining({ content: [{ type: "text", text: `Echo: python ${mode}` }] }) });
        await inHistory(`python ${mode}`, new RegExp(`^interop-python-${mode} 1\\.0\\.0$`));
      });
      it("gets a JSON-RPC error naming the problem for an unknown tool and for bad arguments", async () => {
        const { unknownTool, badArguments } = await host();
        expect(problem(unknownTool)).toMatch(/no_such_tool/);
        expect(badArguments.error).toMatchObject({ code: -32602, message: expect.stringContaining("arguments/message") });
      });
    });
  }

  describe.concurrent("the MCP Inspector CLI 1.0.3", () => {
    // 1.0.3 looks for its package.json relative to the working directory but imports it relative to
    // itself: from anywhere but its build directory it exits with "Cannot find module …/package.json".
    const inspector = (...args: string[]) =>
      run(process.execPath, [INSPECTOR_CLI, "--cli", url, "--transport", "http", "--header", `Authorization: Bearer ${token}`, ...args], { cwd: path.dirname(INSPECTOR_CLI) });

    it("lists and calls; the call is in history as a gateway call with the host's name", async () => {
      const listed = await inspector("--method", "tools/list");
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).tools.map((t: { name: string }) => t.name)).toContain("echo");
      const called = await inspector("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=inspector");
      expect(called.code, called.stderr).toBe(0);
      expect(JSON.parse(called.stdout).content).toEqual([{ type: "text", text: "Echo: inspector" }]);
      await inHistory("inspector", /^inspector-cli /);
    });
    it("fails with the JSON-RPC error's message for bad arguments, and names an unknown tool", async () => {
      const bad = await inspector("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=42");
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/-32602.*arguments\/message/);
      const unknown = await inspector("--method", "tools/call", "--tool-name", "no_such_tool");
      expect(problem(unknown.code === 0 ? { result: JSON.parse(unknown.stdout) } : { error: { message: unknown.stderr } })).toMatch(/no_such_tool/);
    });
  });

  describe.concurrent("mcp-remote 0.15.1 as a stdio proxy, driven by an SDK stdio client", () => {
    let client: Promise<Client>;
    const host = () =>
      (client ??= (async () => {
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: [MCP_REMOTE, url, "--transport", "http-only", "--header", "Authorization:${AUTH}"],
          env: { PATH: process.env.PATH ?? "", HOME: tempDir("mcp-remote"), AUTH: `Bearer ${token}` },
          stderr: "pipe",
        });
        const c = new Client({ name: "interop-mcp-remote-host", version: "1.0.0" });
        await c.connect(transport);
        return c;
      })());
    afterAll(async () => (await client?.catch(() => undefined))?.close());

    it("lists and calls; the call is in history as a gateway call with the host's name", async () => {
      const c = await host();
      expect((await c.listTools()).tools.map((t) => t.name)).toContain("echo");
      expect((await c.callTool({ name: "echo", arguments: { message: "mcp-remote" } })).content).toEqual([{ type: "text", text: "Echo: mcp-remote" }]);
      await inHistory("mcp-remote", /interop-mcp-remote-host/);
    });
    it("passes the gateway's JSON-RPC error through for an unknown tool and for bad arguments", async () => {
      const c = await host();
      expect(problem(await outcome(c.callTool({ name: "no_such_tool", arguments: {} })))).toMatch(/no_such_tool/);
      await expect(c.callTool({ name: "echo", arguments: { message: 42 } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("arguments/message") });
    });
  });
});
