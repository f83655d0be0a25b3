import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import type { RunningServer } from "../support/servers";
import { FILESYSTEM, MEMORY, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "../integration/relay-support";
import { addHttpServer, GIT_SERVER, gitServerEnv, serverRow, startFastmcp, startGitHttp, tempDir, tempGitRepo, type Api } from "./support";

// Servers nobody on this team wrote, each through one console: stdio ones on a real paired agent,
// HTTP ones directly. The rows are independent and run side by side (docs/interop.md).
describe("interoperability: servers", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let agent: RunningAgent | undefined;
  const upstreams: RunningServer[] = [];
  const ids: Record<string, string> = {};
  let gitSession: any;
  const files = tempDir("fs");
  fs.writeFileSync(path.join(files, "hello.txt"), "hello from interop");
  const repo = tempGitRepo();
  const node = process.execPath;
  const logs = () => `--- agent ---\n${agent?.output()}\n--- console ---\n${sb.logs().slice(-4000)}\n${upstreams.map((u) => `--- ${u.url} ---\n${u.output().slice(-2000)}`).join("\n")}`;

  beforeAll(async () => {
    sb = await startConsole();
    ({ api } = await setupOwner(sb.url));
    const viaAgent = async () => {
      const paired = await pairNewAgent(api, sb.url, "interop");
      agent = startAgent(paired.home, {
        mcpServers: {
          filesystem: { command: node, args: [FILESYSTEM, files] },
          memory: { command: node, args: [MEMORY], env: { MEMORY_FILE_PATH: path.join(tempDir("memory"), "memory.jsonl") } },
          git: { command: node, args: [GIT_SERVER], env: gitServerEnv(repo) },
        },
      });
      await waitForAgent(api, paired.agentId, "online", 30_000, logs);
      for (const name of ["filesystem", "memory", "git"]) ids[name] = await serverId(api, name);
    };
    const direct = (name: string, start: () => Promise<RunningServer>, transport: "streamable-http" | "sse") => addHttpServer(api, { name, start, transport, ids, upstreams });
    await Promise.all([
      viaAgent(),
      direct("fastmcp-http", () => startFastmcp("http"), "streamable-http"),
      direct("fastmcp-sse", () => startFastmcp("sse"), "sse"),
      direct("git-http", () => startGitHttp(repo), "streamable-http").then(async () => {
        gitSession = (await api("POST", `/api/v1/servers/${ids["git-http"]}/connect`)).body;
      }),
    ]);
  });
  afterAll(async () => {
    await agent?.stop("SIGKILL");
    await Promise.all(upstreams.map((u) => u.stop()));
    await sb?.stop();
  });

  describe.concurrent("@modelcontextprotocol/server-filesystem over stdio through the agent", () => {
    it("lists its tools", () => serverRow.lists(api, ids.filesystem!, ["list_directory", "read_text_file"]));
    it("reads a file and lists the directory; both calls are in history", async () => {
      const read = await serverRow.calls(api, ids.filesystem!, "read_text_file", { path: path.join(files, "hello.txt") });
      expect(JSON.stringify(read.result.content)).toContain("hello from interop");
      const listed = await serverRow.calls(api, ids.filesystem!, "list_directory", { path: files });
      expect(JSON.stringify(listed.result.content)).toContain("hello.txt");
    });
    it("refuses bad arguments, and a path outside its directory fails with the server's reason", async () => {
      await serverRow.refusesBadArguments(api, ids.filesystem!, "read_text_file", { path: 42 }, "path");
      await serverRow.failsClearly(api, ids.filesystem!, "read_text_file", { path: "/etc/hostname" }, /access denied|outside allowed/i);
    });
  });

  describe.concurrent("@modelcontextprotocol/server-memory over stdio through the agent", () => {
    it("lists its tools", () => serverRow.lists(api, ids.memory!, ["create_entities", "read_graph"]));
    it("creates an entity and reads it back in the graph; both calls are in history", async () => {
      const entity = { name: "Switchboard", entityType: "project", observations: ["speaks MCP"] };
      await serverRow.calls(api, ids.memory!, "create_entities", { entities: [entity] });
      const graph = await serverRow.calls(api, ids.memory!, "read_graph", {});
      expect(JSON.stringify(graph.result)).toContain("speaks MCP");
    });
    it("refuses bad arguments, and an unknown tool fails with the server's reason", async () => {
      await serverRow.refusesBadArguments(api, ids.memory!, "create_entities", { entities: "not a list" }, "entities");
      await serverRow.failsClearly(api, ids.memory!, "no_such_tool", {}, /no_such_tool/);
    });
  });

  describe.concurrent("@cyanheads/git-mcp-server over stdio through the agent", () => {
    it("lists its tools", () => serverRow.lists(api, ids.git!, ["git_status", "git_log"]));
    it("reports the repository's status; the call is in history", async () => {
      const call = await serverRow.calls(api, ids.git!, "git_status", { path: repo });
      expect(call.result.structuredContent).toMatchObject({ currentBranch: "main", untrackedFiles: ["notes.txt"] });
    });
    it("refuses bad arguments, and a path outside GIT_BASE_DIR fails with the server's reason", async () => {
      await serverRow.refusesBadArguments(api, ids.git!, "git_status", { path: repo, includeUntracked: "yes" }, "includeUntracked");
      await serverRow.failsClearly(api, ids.git!, "git_status", { path: "/etc" }, /path traversal/i);
    });
  });

  // It answers the SDK's server/discover probe with HTTP 500: the console falls back to initialize.
  describe.concurrent("@cyanheads/git-mcp-server over Streamable HTTP", () => {
    it("connects through the negotiation fallback, which says why", () => {
      expect(gitSession?.session, JSON.stringify(gitSession)).toMatchObject({ era: "legacy", negotiation: "fallback", negotiationNote: expect.stringMatching(/HTTP 500/) });
    });
    it("lists its tools", () => serverRow.lists(api, ids["git-http"]!, ["git_status", "git_log"]));
    it("reports the repository's status; the call is in history", async () => {
      const call = await serverRow.calls(api, ids["git-http"]!, "git_status", { path: repo });
      expect(call.result.structuredContent).toMatchObject({ currentBranch: "main", untrackedFiles: ["notes.txt"] });
    });
    it("refuses bad arguments, and a path outside GIT_BASE_DIR fails with the server's reason", async () => {
      await serverRow.refusesBadArguments(api, ids["git-http"]!, "git_status", { path: repo, includeUntracked: "yes" }, "includeUntracked");
      await serverRow.failsClearly(api, ids["git-http"]!, "git_status", { path: "/etc" }, /path traversal/i);
    });
  });

  for (const [name, transport] of [["fastmcp-http", "Streamable HTTP"], ["fastmcp-sse", "legacy SSE"]] as const) {
    describe.concurrent(`a Python FastMCP server over ${transport}`, () => {
      it("lists its tools", () => serverRow.lists(api, ids[name]!, ["greet", "add", "explode"]));
      it("calls a text tool and a tool with structured output; both calls are in history", async () => {
        const greet = await serverRow.calls(api, ids[name]!, "greet", { name: "Ada" });
        expect(greet.result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
        const sum = await serverRow.calls(api, ids[name]!, "add", { a: 2, b: 3 });
        expect(sum.result.structuredContent).toEqual({ total: 5, terms: 2 });
      });
      it("refuses bad arguments, and a tool that raises fails with its message", async () => {
        await serverRow.refusesBadArguments(api, ids[name]!, "add", { a: "two", b: 3 }, "a");
        await serverRow.failsClearly(api, ids[name]!, "explode", { reason: "on purpose" }, /exploded: on purpose/);
      });
    });
  }
});
