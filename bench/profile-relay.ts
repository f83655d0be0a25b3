// Ad-hoc (not part of npm run bench): CPU of the console and the agent per API call relayed to a
// stdio server, with --cpu-prof on both when PROF_DIR is set. Reads CPU time from /proc.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setupOwner, startConsole } from "../tests/support/console";
import { agentEnv, CLI, EVERYTHING, pairNewAgent, waitForAgent } from "../tests/integration/relay-support";
import { measure, row } from "./report";

const dir = process.env.PROF_DIR;
const prof = (name: string) => (dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}/${name}`] : []);
const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 16);

/** user + system CPU of a process in ms (Linux). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const sb = await startConsole({ nodeArgs: prof("console") });
const { api, token } = await setupOwner(sb.url);
const paired = await pairNewAgent(api, sb.url, "profile");
const config = path.join(paired.home, "servers.json");
fs.writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }));
// Spawned here rather than by startAgent, which cannot pass node flags (--cpu-prof is refused in NODE_OPTIONS).
const child = spawn(process.execPath, [...prof("agent"), CLI, "start", "--config", config], { env: agentEnv(paired.home), stdio: "ignore" });
const agent = { child, stop: () => new Promise((resolve) => (child.kill("SIGTERM"), child.once("exit", resolve))) };
try {
  await waitForAgent(api, paired.agentId, "online");
  const items = (await api("GET", "/api/v1/servers")).body.items as { id: string; name: string }[];
  const serverId = items.find((s) => s.name === "everything")!.id;
  const once = async () => {
    const res = await fetch(`${sb.url}/api/v1/servers/${serverId}/tools/call`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "echo", arguments: { message: "bench" } }),
    });
    const body = (await res.json()) as { call?: { status: string } };
    if (body.call?.status !== "ok") throw new Error(JSON.stringify(body));
  };
  await measure("warm", IN_FLIGHT, 1000, once);
  const agentPid = agent.child.pid!;
  const [c0, a0, t0] = [cpuMs(sb.pid()), cpuMs(agentPid), cpuMs(process.pid)];
  const from = process.hrtime.bigint() / 1000n;
  const s = await measure("api → relay", IN_FLIGHT, CALLS, once);
  // Same monotonic clock as the profiles' timestamps (µs): the analysis keeps this window only.
  console.log(`window ${from} ${process.hrtime.bigint() / 1000n}`);
  const [c1, a1, t1] = [cpuMs(sb.pid()), cpuMs(agentPid), cpuMs(process.pid)];
  const r = row(s);
  console.log(`load ${fs.readFileSync("/proc/loadavg", "utf8").trim()}`);
  console.log(`${IN_FLIGHT} in flight: ${r.rate.toFixed(0)} calls/s, p50 ${r.p50.toFixed(2)} ms; CPU per call: console ${((c1 - c0) / CALLS).toFixed(3)} ms, agent ${((a1 - a0) / CALLS).toFixed(3)} ms, client ${((t1 - t0) / CALLS).toFixed(3)} ms`);
} finally {
  await agent.stop();
  await sb.stop();
}
