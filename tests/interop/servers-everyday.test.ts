import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import type { RunningServer } from "../support/servers";
import { MEMORY, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "../integration/relay-support";
import { addHttpServer, CHROME_DEVTOOLS_MCP, chromeDevtoolsArgs, FASTMCP_SERVER, mcporter, PLAYWRIGHT_MCP, playwrightArgs, PYTHON, serverRow, servePage, startPlaywrightHttp, startSdk1, startSupergatewaySse, tempDir, type Api } from "./support";

// The servers real teams run every day (issue 40), through one console: a slow-starting Python
// stdio server, the two browser-driving servers on Debian's Chromium, SDK 1.x servers and a stdio
// server bridged by supergateway. Rows run side by side (docs/interop.md).
describe("interoperability: everyday servers", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let agent: RunningAgent | undefined;
  let page: Awaited<ReturnType<typeof servePage>>;
  let playwrightHttp: RunningServer;
  const upstreams: RunningServer[] = [];
  const ids: Record<string, string> = {};
  const node = process.execPath;
  const fastmcpStarts = path.join(tempDir("fastmcp-starts"), "starts.txt");
  const starts = () => (fs.existsSync(fastmcpStarts) ? fs.readFileSync(fastmcpStarts, "utf8").trim().split("\n").filter(Boolean).length : 0);
  const logs = () => `--- agent ---\n${agent?.output().slice(-4000)}\n--- console ---\n${sb.logs().slice(-4000)}\n${upstreams.map((u) => `--- ${u.url} ---\n${u.output().slice(-2000)}`).join("\n")}`;

  beforeAll(async () => {
    [sb, page] = await Promise.all([startConsole(), servePage()]);
    ({ api } = await setupOwner(sb.url));
    const viaAgent = async () => {
      const paired = await pairNewAgent(api, sb.url, "interop-everyday");
      agent = startAgent(paired.home, {
        mcpServers: {
          // Python FastMCP that takes 7 s before it serves, as any `uvx` server on a cold cache.
          "fastmcp-slow": { command: PYTHON, args: [FASTMCP_SERVER, "stdio", "7"], env: { STARTS_FILE: fastmcpStarts } },
          playwright: { command: node, args: [PLAYWRIGHT_MCP, ...playwrightArgs()] },
          "chrome-devtools": { command: node, args: [CHROME_DEVTOOLS_MCP, ...chromeDevtoolsArgs()], env: { CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: "1" } },
        },
      });
      await waitForAgent(api, paired.agentId, "online", 30_000, logs);
      for (const name of ["fastmcp-slow", "playwright", "chrome-devtools"]) ids[name] = await serverId(api, name);
    };
    const direct = (name: string, start: () => Promise<RunningServer>, transport: "streamable-http" | "sse") => addHttpServer(api, { name, start, transport, ids, upstreams });
    const memoryFile = path.join(tempDir("sg-memory"), "memory.jsonl");
    // The HTTP servers one after the other, beside the agent: started all at once on a loaded
    // machine, one of them missed the 30-second readiness deadline.
    const directly = async () => {
      playwrightHttp = await direct("playwright-http", startPlaywrightHttp, "streamable-http");
      // The same server added by its IP address: Playwright MCP answers 403 for any Host but localhost.
      const res = await api("POST", "/api/v1/servers", { name: "playwright-http-ip", url: `http://127.0.0.1:${playwrightHttp.port}/mcp`, transport: "streamable-http" });
      ids["playwright-http-ip"] = res.body.server.id;
      await direct("sdk1-stateless", () => startSdk1("stateless"), "streamable-http");
      await direct("sdk1-json", () => startSdk1("json"), "streamable-http");
      await direct("supergateway-sse", () => startSupergatewaySse(`${node} ${MEMORY}`, { MEMORY_FILE_PATH: memoryFile }), "sse");
    };
    await Promise.all([viaAgent(), directly()]);
  }, 120_000);
  afterAll(async () => {
    await agent?.stop("SIGKILL");
    await Promise.all(upstreams.map((u) => u.stop()));
    await page?.close();
    await sb?.stop();
  });

  // Starts in 7 s: the `auto` probe must wait for the process, not give up after 5 s (issue 40).
  describe.concurrent("a Python FastMCP server over stdio that takes 7 s to start, through the agent, protocol auto", () => {
    it("lists its tools", () => serverRow.lists(api, ids["fastmcp-slow"]!, ["greet", "add", "explode"]), 60_000);
    it("calls a text tool and a tool with structured output; both calls are in history", async () => {
      const greet = await serverRow.calls(api, ids["fastmcp-slow"]!, "greet", { name: "Ada" });
      expect(greet.result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
      const sum = await serverRow.calls(api, ids["fastmcp-slow"]!, "add", { a: 2, b: 3 });
      expect(sum.result.structuredContent).toEqual({ total: 5, terms: 2 });
    }, 60_000);
    it("refuses bad arguments, and a tool that raises fails with its message", async () => {
      await serverRow.refusesBadArguments(api, ids["fastmcp-slow"]!, "add", { a: "two", b: 3 }, "a");
      await serverRow.failsClearly(api, ids["fastmcp-slow"]!, "explode", { reason: "on purpose" }, /exploded: on purpose/);
    }, 60_000);
  });

  // A CLI host opens one session per command; each must not start the 7-second server again.
  describe.concurrent("mcporter 0.9.0 on the slow stdio server's gateway endpoint", () => {
    it("lists, calls and gets a clear error in three commands that share one server process", async () => {
      const { path: endpoint } = (await api("PUT", `/api/v1/servers/${ids["fastmcp-slow"]}/exposure`, { enabled: true })).body.exposure;
      const token = (await api("POST", "/api/v1/tokens", { name: "interop-mcporter", scopes: ["gateway"] })).body.secret;
      const url = `${sb.url}${endpoint}`;
      // mcporter gives a server 30 s by default; the first session may wait for a 7-second start under load.
      const took: string[] = [];
      const timed = async (args: string[]) => {
        const started = Date.now();
        const res = await mcporter(url, token, [...args, "--timeout", "90000"]);
        took.push(`${args[0]} ${args[1]}: ${Date.now() - started} ms`);
        return res;
      };
      const listed = await timed(["list", "switchboard", "--json"]);
      expect(listed.code, `${took.join(", ")}\n${listed.stderr}${listed.stdout}`).toBe(0);
      const before = starts();
      expect(JSON.parse(listed.stdout).tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(["greet", "add"]));
      const called = await timed(["call", "switchboard.greet", "name=mcporter", "--output", "json"]);
      expect(called.code, called.stderr + called.stdout).toBe(0);
      // mcporter prints a structured result as it is: FastMCP wraps a str in `result`.
      expect(JSON.parse(called.stdout)).toEqual({ result: "Hello, mcporter!" });
      const bad = await timed(["call", "switchboard.add", "a=two", "b=3", "--output", "json"]);
      // 0.9.0 prints a call's error and exits 0 (0.12 exits 1).
      expect(bad.stdout + bad.stderr).toMatch(/-32602[\s\S]*arguments\/a/);
      expect(starts(), `processes started for the later sessions (${took.join(", ")})`).toBe(before);
    }, 240_000);
  });

  describe.concurrent("Playwright MCP 0.0.83 over stdio through the agent (Chromium)", () => {
    it("lists its tools", () => serverRow.lists(api, ids.playwright!, ["browser_navigate", "browser_snapshot", "browser_click"]), 60_000);
    it("opens the test page and reads it back from the same browser; both calls are in history", async () => {
      const nav = await serverRow.calls(api, ids.playwright!, "browser_navigate", { url: page.url });
      expect(JSON.stringify(nav.result.content)).toContain("Page Title: Interop page");
      const snapshot = await serverRow.calls(api, ids.playwright!, "browser_snapshot", {});
      expect(JSON.stringify(snapshot.result.content)).toContain("Hello from interop");
    }, 60_000);
    it("refuses bad arguments, and a click on an element that is not there fails with the server's reason", async () => {
      await serverRow.refusesBadArguments(api, ids.playwright!, "browser_navigate", { url: 42 }, "url");
      await serverRow.failsClearly(api, ids.playwright!, "browser_click", { element: "a missing button", target: "e9999" }, /Ref e9999 not found/);
    }, 60_000);
  });

  describe.concurrent("Playwright MCP 0.0.83 in its HTTP mode on loopback (Chromium)", () => {
    it("lists its tools at the address it prints (localhost)", () => serverRow.lists(api, ids["playwright-http"]!, ["browser_navigate", "browser_snapshot"]), 60_000);
    it("opens the test page and reads it back; both calls are in history", async () => {
      const nav = await serverRow.calls(api, ids["playwright-http"]!, "browser_navigate", { url: page.url });
      expect(JSON.stringify(nav.result.content)).toContain("Page Title: Interop page");
      const snapshot = await serverRow.calls(api, ids["playwright-http"]!, "browser_snapshot", {});
      expect(JSON.stringify(snapshot.result.content)).toContain("Hello from interop");
    }, 60_000);
    it("refuses bad arguments, and a click on an element that is not there fails with the server's reason", async () => {
      await serverRow.refusesBadArguments(api, ids["playwright-http"]!, "browser_navigate", { url: 42 }, "url");
      await serverRow.failsClearly(api, ids["playwright-http"]!, "browser_click", { element: "a missing button", target: "e9999" }, /Ref e9999 not found/);
    }, 60_000);
    // Added by IP, it answers 403 with its own text: the console shows that text, not a credential problem.
    it("shows the server's own 403 text when added by IP address", async () => {
      const res = await api("POST", `/api/v1/servers/${ids["playwright-http-ip"]}/connect`);
      expect(res.status, JSON.stringify(res.body)).toBe(502);
      expect(res.body.error.message).toContain(`Access is only allowed at localhost:${playwrightHttp.port}`);
      expect(res.body.error.details).toMatchObject({ status: 403 });
      expect(res.body.error.details.kind).not.toBe("unauthorized");
    }, 60_000);
  });

  describe.concurrent("chrome-devtools-mcp 1.11.0 over stdio through the agent (Chromium)", () => {
    it("lists its tools", () => serverRow.lists(api, ids["chrome-devtools"]!, ["new_page", "take_snapshot", "select_page"]), 60_000);
    it("opens the test page and reads it back; both calls are in history", async () => {
      const opened = await serverRow.calls(api, ids["chrome-devtools"]!, "new_page", { url: page.url });
      const pageId = Number(/(\d+): Interop page/.exec(JSON.stringify(opened.result.content))?.[1]);
      expect(pageId, JSON.stringify(opened.result.content)).toBeGreaterThan(0);
      const snapshot = await serverRow.calls(api, ids["chrome-devtools"]!, "take_snapshot", { pageId });
      expect(JSON.stringify(snapshot.result.content)).toContain("Hello from interop");
    }, 60_000);
    it("refuses bad arguments, and a page that does not exist fails with the server's reason", async () => {
      await serverRow.refusesBadArguments(api, ids["chrome-devtools"]!, "new_page", { url: 42 }, "url");
      await serverRow.failsClearly(api, ids["chrome-devtools"]!, "select_page", { pageId: 9999 }, /9999|no page/i);
    }, 60_000);
  });

  for (const mode of ["stateless", "json"] as const) {
    const id = () => ids[`sdk1-${mode}`]!;
    describe.concurrent(`a TypeScript SDK 1.32.2 server over Streamable HTTP (${mode === "json" ? "JSON responses" : "stateless"})`, () => {
      it("lists its tools", () => serverRow.lists(api, id(), ["echo", "add", "fail"]));
      it("calls a text tool and a tool with structured output; both calls are in history", async () => {
        const echo = await serverRow.calls(api, id(), "echo", { message: mode });
        expect(echo.result.content).toEqual([{ type: "text", text: `Echo: ${mode}` }]);
        const sum = await serverRow.calls(api, id(), "add", { a: 2, b: 3 });
        expect(sum.result.structuredContent).toEqual({ total: 5 });
      });
      it("refuses bad arguments, and a tool that throws fails with its message", async () => {
        await serverRow.refusesBadArguments(api, id(), "add", { a: "two", b: 3 }, "a");
        await serverRow.failsClearly(api, id(), "fail", { reason: mode }, new RegExp(`failed on purpose: ${mode}`));
      });
    });
  }

  describe.concurrent("supergateway 4.0.0 bridging a stdio server (server-memory) to HTTP+SSE", () => {
    it("lists its tools", () => serverRow.lists(api, ids["supergateway-sse"]!, ["create_entities", "read_graph"]));
    it("creates an entity and reads it back in the graph; both calls are in history", async () => {
      const entity = { name: "Bridge", entityType: "project", observations: ["through supergateway"] };
      await serverRow.calls(api, ids["supergateway-sse"]!, "create_entities", { entities: [entity] });
      const graph = await serverRow.calls(api, ids["supergateway-sse"]!, "read_graph", {});
      expect(JSON.stringify(graph.result)).toContain("through supergateway");
    });
    it("refuses bad arguments, and an unknown tool fails with the server's reason", async () => {
      await serverRow.refusesBadArguments(api, ids["supergateway-sse"]!, "create_entities", { entities: "not a list" }, "entities");
      await serverRow.failsClearly(api, ids["supergateway-sse"]!, "no_such_tool", {}, /no_such_tool/);
    });
  });
});
