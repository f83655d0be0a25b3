import type { Client } from "@modelcontextprotocol/client";
import { startConsole, waitFor, type ConsoleHandle } from "../tests/support/console";
import { EVERYTHING, pairNewAgent, startAgent, waitForAgent, type RunningAgent } from "../tests/integration/relay-support";
import { echoVia } from "./console";
import { echo, host } from "./gateway";
import type { CallPath } from "./interleave";
import { cpuMs as processCpu, type StageLog } from "./stages";
import { seed } from "./ui";
import { CookieJar, invitedPeople, type LoadTarget } from "./ui-load";

/** One console of a comparison ("base" or "head") with everything its rows need. */
export interface Side {
  name: string;
  sb: ConsoleHandle;
  /** Its API, API → relay → stdio and gateway paths (labels prefixed with `name`). */
  paths: CallPath[];
  /** Its pages under `people` signed-in people (bench/ui-load.ts). */
  load: LoadTarget;
  close(): Promise<void>;
}

export const ROW = { api: "API", relay: "API → relay → stdio", gateway: "gateway" } as const;

/**
 * Starts a console (this tree's, or the checkout at `root` on a database its migrations made),
 * seeds it as bench/ui.ts does, pairs an agent serving server-everything over stdio, exposes the
 * HTTP server-everything on the gateway.
 */
export async function startSide(opts: { name: string; root?: string; databaseUrl?: string; everythingUrl: string; stages: StageLog; pages: string[]; people: number }): Promise<Side> {
  const sb = await startConsole({ compiled: true, root: opts.root, databaseUrl: opts.databaseUrl, join: Boolean(opts.databaseUrl) });
  let agent: RunningAgent | undefined;
  const clients: Client[] = [];
  try {
    const seeded = await seed(sb, opts.everythingUrl);
    const { api } = seeded;
    const token = (await api("POST", "/api/v1/tokens", { name: "bench", scopes: ["full", "gateway"] })).body.secret as string;
    const servers = async () => (await api("GET", "/api/v1/servers")).body.items as { id: string; name: string }[];
    const everything = (await servers()).find((s) => s.name === "everything")!.id;
    const { path: endpoint } = (await api("PUT", `/api/v1/servers/${everything}/exposure`, { enabled: true })).body.exposure;

    const paired = await pairNewAgent(api, sb.url, `bench-${opts.name}`);
    agent = startAgent(paired.home, { mcpServers: { "relay-everything": { command: process.execPath, args: [EVERYTHING, "stdio"] } } });
    await waitForAgent(api, paired.agentId, "online", 30_000, () => agent!.output());
    let relayed = "";
    await waitFor(async () => Boolean((relayed = (await servers()).find((s) => s.name === "relay-everything")?.id ?? "")), 20_000);

    const gateway = await host(`${sb.url}${endpoint}`, { authorization: `Bearer ${token}` }, opts.stages.fetch());
    clients.push(gateway);
    const people = [new CookieJar(seeded.cookie), ...(await invitedPeople(sb.url, api, opts.people - 1))];
    const pages = seeded.pages.filter((p) => opts.pages.includes(p.route));
    return {
      name: opts.name,
      sb,
      paths: [
        { label: `${opts.name} ${ROW.api}`, call: echoVia(sb.url, token, everything, opts.stages), pid: sb.pid() },
        { label: `${opts.name} ${ROW.relay}`, call: echoVia(sb.url, token, relayed, opts.stages), pid: sb.pid() },
        { label: `${opts.name} ${ROW.gateway}`, call: echo(gateway), pid: sb.pid() },
      ],
      load: { label: opts.name, base: sb.url, pages, people, cpuMs: () => processCpu(sb.pid()) },
      async close() {
        await Promise.allSettled(clients.map((c) => c.close()));
        await agent?.stop();
        await sb.stop();
      },
    };
  } catch (err) {
    console.error(sb.logs().slice(-3000));
    await agent?.stop();
    await sb.stop();
    throw err;
  }
}
