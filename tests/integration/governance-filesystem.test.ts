import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { FILESYSTEM, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

/**
 * An argument rule on a server nobody here wrote: @modelcontextprotocol/server-filesystem on a
 * paired agent (stdio), allowed the temp directory, reached by the SDK client through the gateway.
 * `read_text_file` with `{"path":"<tmp>/a"}` goes through; `{"path":"/etc/passwd"}` is refused by the
 * rule before anything is sent (a JSON-RPC error naming the rule and the argument), recorded as denied.
 */
describe("an argument rule on a real filesystem server through the gateway", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let agent: RunningAgent;
  let host: Client;
  let stdioId: string;
  let ruleId: string;
  const dir = fs.realpathSync(os.tmpdir());
  const allowed = path.join(dir, "a");

  beforeAll(async () => {
    fs.writeFileSync(allowed, "alpha from a\n");
    sb = await startConsole();
    const owner = await setupOwner(sb.url);
    api = owner.api;
    const paired = await pairNewAgent(api, sb.url, "fs-agent");
    agent = startAgent(paired.home, { mcpServers: { files: { command: process.execPath, args: [FILESYSTEM, dir] } } }, { grace: 60 });
    await waitForAgent(api, paired.agentId, "online", 20_000, () => agent.output());
    stdioId = await serverId(api, "files");
    expect((await api("PUT", `/api/v1/servers/${stdioId}/exposure`, { enabled: true })).status).toBe(200);
    const rule = await api("POST", "/api/v1/policy-rules", { name: "nothing under /etc", effect: "deny", servers: [stdioId], tools: ["read_text_file"], when: [{ path: "/path", op: "matches", value: "^/etc/" }] });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    ruleId = rule.body.rule.id;
    const token = (await api("POST", "/api/v1/tokens", { name: "fs-host", scopes: ["gateway"] })).body.secret as string;
    host = await gatewayHost(`${sb.url}/mcp/${encodeURIComponent(owner.workspace.slug)}/files`, token, { name: "fs-host" });
  });
  afterAll(async () => {
    await host?.close().catch(() => undefined);
    await agent?.stop("SIGKILL");
    await sb?.stop();
  });

  it("reads the allowed path and refuses /etc/passwd naming the rule and the argument", async () => {
    // A conditional deny leaves the tool listed: some arguments are allowed.
    expect((await host.listTools()).tools.map((t) => t.name)).toContain("read_text_file");

    const ok = await host.callTool({ name: "read_text_file", arguments: { path: allowed } });
    expect(ok.isError ?? false).toBe(false);
    expect(JSON.stringify(ok.content)).toContain("alpha from a");

    const refused = await host.callTool({ name: "read_text_file", arguments: { path: "/etc/passwd" } }).then(
      () => null,
      (err: Error & { code?: number; data?: { ruleId?: string } }) => err,
    );
    expect(refused).not.toBeNull();
    expect(refused!.code).toBe(-32001);
    expect(refused!.message).toContain('"nothing under /etc"');
    expect(refused!.message).toContain("/path");
    expect(refused!.data?.ruleId).toBe(ruleId);

    const history = (await api("GET", `/api/v1/calls?serverId=${stdioId}`)).body.items as { id: string; name: string; status: string; policyRuleId: string | null }[];
    const denied = history.filter((c) => c.status === "denied");
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ name: "read_text_file", policyRuleId: ruleId });
    const detail = (await api("GET", `/api/v1/calls/${denied[0]!.id}`)).body.call;
    expect(JSON.stringify(detail)).toContain("/etc/passwd");
    expect(detail.error.message).toContain('"nothing under /etc"');
    expect(history.filter((c) => c.status === "ok").map((c) => c.name)).toContain("read_text_file");
  });
});
