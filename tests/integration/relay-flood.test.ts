import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { RELAY_PATH, RELAY_PROTOCOL_VERSION } from "@/lib/relay/protocol";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { pairNewAgent, waitForAgent } from "./relay-support";

const MiB = 1024 * 1024;

function rss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? 0) * 1024;
}

/** Issue 11, item 9: an agent that floods the console while never reading cannot grow its memory. */
describe("an agent that sends without reading", () => {
  let sb: ConsoleHandle;

  beforeAll(async () => {
    sb = await startConsole({ env: { SWITCHBOARD_RELAY_MAX_UNREAD_BYTES: String(4 * MiB) } });
  });
  afterAll(async () => {
    await sb?.stop();
  });

  it("is dropped once the console has a bounded amount queued for it, and memory stays flat", async () => {
    const { api } = await setupOwner(sb.url);
    const flooder = await pairNewAgent(api, sb.url, "flooder");
    const ws = new WebSocket(`${sb.url.replace("http", "ws")}${RELAY_PATH}`, { headers: { authorization: `Bearer ${flooder.token}` } });
    const welcomed = new Promise<void>((resolve) => ws.once("message", () => resolve()));
    await new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
    ws.send(JSON.stringify({ type: "hello", version: RELAY_PROTOCOL_VERSION, agent: { version: "0", hostname: "h", platform: "linux" }, servers: [], graceMs: 0 }));
    await welcomed;
    await waitForAgent(api, flooder.agentId, "online");

    const before = rss(sb.pid());
    // Stop reading: every pong the console answers with now stays queued on its side.
    ws.pause();
    const ping = JSON.stringify({ type: "ping", t: 1 });
    let sent = 0;
    while (ws.readyState === WebSocket.OPEN && sent < 3_000_000 && !/is not reading/.test(sb.logs())) {
      for (let i = 0; i < 20_000; i++) ws.send(ping);
      sent += 20_000;
      await new Promise<void>((resolve) => ws.send(ping, () => resolve()));
    }
    await waitFor(() => /is not reading \(\d+ bytes unread\); dropping the link/.test(sb.logs()), 30_000, () => sb.logs().slice(-2000));
    await waitForAgent(api, flooder.agentId, "offline");
    const grown = rss(sb.pid()) - before;
    expect(grown).toBeLessThan(96 * MiB);
    ws.terminate();
  }, 120_000);
});
