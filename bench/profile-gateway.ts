// Ad-hoc: CPU profile of the console under the echo load through the gateway (not part of npm run bench).
// Usage: PROF_DIR=/tmp/prof-gw npx tsx bench/profile-gateway.ts; then bench/profile-summary.ts on the console's profile.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { setupOwner, startConsole } from "../tests/support/console";
import { startEverything } from "../tests/support/servers";
import { measure, row } from "./report";

const everything = await startEverything("streamableHttp");
const sb = await startConsole({ nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${process.env.PROF_DIR ?? "/tmp/prof-gw"}`] });
const { api } = await setupOwner(sb.url);
const serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id as string;
const { path: endpoint } = (await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true })).body.exposure;
const token = (await api("POST", "/api/v1/tokens", { name: "bench", scopes: ["gateway"] })).body.secret as string;
const host = new Client({ name: "bench-host", version: "0" });
await host.connect(new StreamableHTTPClientTransport(new URL(`${sb.url}${endpoint}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
const once = async () => {
  await host.callTool({ name: "echo", arguments: { message: "bench" } });
};
await measure("warm", 16, 1000, once);
console.log(row(await measure("gateway", 16, 3000, once)));
await host.close();
await sb.stop();
await everything.stop();
