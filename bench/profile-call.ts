// Ad-hoc: CPU profile of the console under the echo load (not part of npm run bench).
import { setupOwner, startConsole } from "../tests/support/console";
import { startEverything } from "../tests/support/servers";
import { measure, row } from "./report";

const everything = await startEverything("streamableHttp");
const sb = await startConsole({ nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${process.env.PROF_DIR ?? "/tmp/prof"}`] });
const { api, token } = await setupOwner(sb.url);
const server = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server;
const once = async () => {
  const res = await fetch(`${sb.url}/api/v1/servers/${server.id}/tools/call`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "echo", arguments: { message: "bench" } }),
  });
  await res.json();
};
await measure("warm", 4, 300, once);
const s = await measure("console", 16, 3000, once);
console.log(row(s));
await sb.stop();
await everything.stop();
