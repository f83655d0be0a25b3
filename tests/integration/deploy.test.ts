import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, onPostgres, sessionCookie, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { openEvents } from "../support/events";
import { freePort } from "../support/servers";
import { EVERYTHING, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NGINX = "/usr/sbin/nginx";

/** The nginx blocks of docs/deploy.md, pointed at this test's instances and ports. */
function nginxConfig(dir: string, ports: { proxy: number; apps: number; a: number; b: number }): string {
  const doc = fs.readFileSync(path.join(ROOT, "docs/deploy.md"), "utf8");
  const blocks = [...doc.matchAll(/```nginx\n([\s\S]*?)```/g)].map((m) => m[1]!);
  if (blocks.length !== 1) throw new Error(`docs/deploy.md should hold one nginx block, found ${blocks.length}`);
  const replace = (text: string, from: string, to: string) => {
    if (!text.includes(from)) throw new Error(`docs/deploy.md's nginx block no longer holds "${from}"`);
    return text.split(from).join(to);
  };
  let site = blocks[0]!;
  site = replace(site, "127.0.0.1:3001", `127.0.0.1:${ports.a}`);
  site = replace(site, "127.0.0.1:3002", `127.0.0.1:${ports.b}`);
  site = replace(site, "127.0.0.1:3101", `127.0.0.1:${ports.a + 1}`);
  site = replace(site, "127.0.0.1:3102", `127.0.0.1:${ports.b + 1}`);
  site = replace(site, "listen 80 default_server;", `listen 127.0.0.1:${ports.proxy} default_server;`);
  site = replace(site, "listen 80;", `listen 127.0.0.1:${ports.apps};`);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `${t}_temp_path ${dir}/${t};`).join("\n");
  return [
    process.getuid?.() === 0 ? "user root;" : "",
    `worker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;`,
    "events { worker_connections 512; }",
    `http {\naccess_log ${dir}/access.log;\n${temp}\n${site}\n}`,
  ].join("\n");
}

/** docs/deploy.md, run: two instances on PostgreSQL behind nginx with the documented configuration. */
/** A free loopback port, kept bound until `release`. */
async function holdPort(): Promise<{ port: number; release(): Promise<void> }> {
  for (;;) {
    const port = await freePort();
    const server = net.createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (bound) return { port, release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }
}

describe.skipIf(!onPostgres)("the two-instance deployment of docs/deploy.md, behind nginx", () => {
  let a: ConsoleHandle;
  let b: ConsoleHandle;
  let nginx: ChildProcess;
  let agent: RunningAgent;
  let proxyUrl: string;
  let api: ReturnType<typeof apiClient>;
  let token: string;
  let owner: Awaited<ReturnType<typeof setupOwner>>;
  let id: string;
  let agentId: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-nginx-"));

  beforeAll(async () => {
    if (!fs.existsSync(NGINX)) throw new Error("nginx is not installed (apt-get install -y nginx; .ci/run does it)");
    // Held (listening) while the consoles start, so that no other console of the run takes them
    // (a console also binds its port + 1, the sandbox's); released just before nginx binds them.
    const held = [await holdPort(), await holdPort()];
    const [proxy, apps] = held.map((h) => h.port) as [number, number];
    proxyUrl = `http://127.0.0.1:${proxy}`;
    const env = { SWITCHBOARD_HEARTBEAT_MS: "300", SWITCHBOARD_TRUST_PROXY: "1", SWITCHBOARD_URL: proxyUrl };
    a = await startConsole({ env });
    b = await startConsole({ databaseUrl: a.databaseUrl, env, join: true });
    const port = (c: ConsoleHandle) => Number(new URL(c.url).port);
    fs.writeFileSync(path.join(dir, "nginx.conf"), nginxConfig(dir, { proxy, apps, a: port(a), b: port(b) }));
    await Promise.all(held.map((h) => h.release()));
    nginx = spawn(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf")], { stdio: ["ignore", "pipe", "pipe"] });
    let nginxOutput = "";
    nginx.stderr!.on("data", (d) => (nginxOutput += d));
    await waitFor(async () => {
      if (nginx.exitCode !== null) throw new Error(`nginx exited: ${nginxOutput}`);
      return (await fetch(`${proxyUrl}/api/v1/setup`).catch(() => undefined))?.ok === true;
    }, 20_000);

    owner = await setupOwner(proxyUrl);
    token = owner.token;
    api = owner.api;
    const paired = await pairNewAgent(api, proxyUrl, "behind-nginx");
    agentId = paired.agentId;
    agent = startAgent(paired.home, { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }, { grace: 0 });
    await waitForAgent(api, agentId, "online", 20_000, () => agent.output());
    id = await serverId(api, "everything");
  });
  afterAll(async () => {
    await agent?.stop("SIGKILL");
    nginx?.kill("SIGQUIT");
    await Promise.all([a?.stop({ crash: true }).catch(() => undefined), b?.stop({ crash: true }).catch(() => undefined)]);
  });

  const echo = (message: string) => api("POST", `/api/v1/servers/${id}/tools/call`, { name: "echo", arguments: { message } });

  it("serves calls through whichever instance nginx picks, all run where the agent is", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => echo(`through nginx ${i}`)));
    expect(answers.map((r) => r.body.call?.status)).toEqual(Array(8).fill("ok"));
    const owners = await a.db.all<{ instance_id: string }>('SELECT DISTINCT instance_id FROM "call" WHERE name = ?', "echo");
    expect(owners).toHaveLength(1);
    // Both instances answered requests: nginx balances, the one without the agent forwarded.
    expect((await a.db.all("SELECT id FROM instance")).length).toBe(2);
  });

  it("keeps the sign-in cookie and origin checks working through the proxy", async () => {
    const cookie = await sessionCookie(proxyUrl, owner.email, owner.password);
    const res = await fetch(`${proxyUrl}/api/v1/servers/${id}/tools/call`, {
      method: "POST",
      headers: { cookie, origin: proxyUrl, "content-type": "application/json" },
      body: JSON.stringify({ name: "echo", arguments: { message: "with a cookie" } }),
    });
    expect(res.status).toBe(200);
    const refused = await fetch(`${proxyUrl}/api/v1/servers/${id}/tools/call`, {
      method: "POST",
      headers: { cookie, origin: "http://127.0.0.1:1", "content-type": "application/json" },
      body: JSON.stringify({ name: "echo", arguments: { message: "cross-site" } }),
    });
    expect(refused.status).toBe(403);
  });

  it("streams live events through nginx without buffering", async () => {
    const events = await openEvents(proxyUrl, token);
    try {
      const running = api("POST", `/api/v1/servers/${id}/tools/call`, { name: "trigger-long-running-operation", arguments: { duration: 4, steps: 4 }, requestId: "through-nginx-progress" });
      // The first step arrives while the call still runs: nothing holds the stream back.
      await events.next((e) => e.type === "progress" && e.requestId === "through-nginx-progress" && e.progress === 1);
      expect(events.events.some((e) => e.type === "progress" && e.requestId === "through-nginx-progress" && e.progress === 4)).toBe(false);
      expect((await running).body.call.status).toBe("ok");
    } finally {
      events.close();
    }
  });

  it("loses the instance the agent is on: the agent comes back through nginx to the other, and calls go on", async () => {
    const holder = a.logs().includes(`(${agentId}) online`) ? a : b;
    const survivor = holder === a ? b : a;
    await holder.stop({ crash: true });
    await waitFor(() => survivor.logs().includes(`(${agentId}) online`), 30_000, () => agent.output());
    await waitFor(async () => (await echo("after the loss")).body.call?.status === "ok", 15_000);
  });
});
