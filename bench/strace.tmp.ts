import fs from "node:fs";
import { setupOwner, startConsole } from "../tests/support/console";
import { startEverything } from "../tests/support/servers";
import { measure, row } from "./report";
const everything = await startEverything("streamableHttp");
const sb = await startConsole();
const { api, token } = await setupOwner(sb.url);
const server = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server;
const once = async () => {
  const res = await fetch(`${sb.url}/api/v1/servers/${server.id}/tools/call`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ name: "echo", arguments: { message: "bench" } }) });
  await res.json();
};
await measure("warm", 16, 1000, once);
fs.writeFileSync("/tmp/console.pid", String(sb.pid()));
const s = await measure("console", 16, 4000, once);
console.log(row(s));
await sb.stop(); await everything.stop();
