// The console under test for `npm run conformance`: does what each scenario expects, but only
// through the console's HTTP API, as a person at the console would: add the server, connect,
// list, call, and answer the server's questions (elicitation) from the workspace event stream.
// The runner passes the console's URL and an owner token in SB_URL and SB_TOKEN.
import { randomUUID } from "node:crypto";
import { apiClient } from "../support/console";
import { openEvents } from "../support/events";
// @ts-expect-error plain JS module shared with the bare SDK client
import { exercise, scenarioContext } from "./scenario.mjs";

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const serverUrl = process.argv[2];
const base = process.env.SB_URL!;
const token = process.env.SB_TOKEN!;
const api = apiClient(base, token);

/** A 4xx/5xx from the console becomes an error carrying its message. */
async function ok<T = any>(method: string, route: string, body?: unknown): Promise<T> {
  const res = await api(method, route, body);
  if (res.status >= 400) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(res.body?.error ?? res.body)}`);
  return res.body as T;
}

/** The same answer the bare SDK client gives: accept with `{}` (defaults), or `confirmed: true`. */
function answerFor(request: { requestedSchema?: { properties?: Record<string, unknown> } }) {
  const props = request.requestedSchema?.properties ?? {};
  return "confirmed" in props ? { confirmed: true } : {};
}

const events = await openEvents(base, token);
let stop = false;
const answering = (async () => {
  let from = 0;
  while (!stop) {
    const event = await events.next((e) => e.type === "interaction" && e.status === "pending", { from, timeoutMs: 60_000 }).catch(() => null);
    if (!event) continue;
    from = events.events.indexOf(event) + 1;
    const { interaction } = await ok(`GET`, `/api/v1/interactions/${String(event.interactionId)}`);
    const answer = interaction.kind === "sampling" ? { action: "reply", text: "ok", model: "human" } : { action: "accept", content: answerFor(interaction.request) };
    await ok("POST", `/api/v1/interactions/${interaction.id}/respond`, answer).catch((err) => console.error(String(err)));
  }
})();

const { server } = await ok("POST", "/api/v1/servers", { name: `${scenario}-${randomUUID().slice(0, 8)}`, url: serverUrl, timeoutMs: 20_000 });
const id = server.id as string;
try {
  await ok("POST", `/api/v1/servers/${id}/connect`);
  const items = async (kind: string) => (await ok(`GET`, `/api/v1/servers/${id}/${kind}`)).items;
  await exercise(scenario, scenarioContext(), {
    listTools: async () => ({ tools: await items("tools") }),
    callTool: async (name: string, args: unknown) => {
      const { call } = await ok("POST", `/api/v1/servers/${id}/tools/call`, { name, arguments: args });
      if (call.status === "failed") throw new Error(`${name} failed: ${JSON.stringify(call.error ?? call.result)}`);
      return call;
    },
    listResources: async () => ({ resources: await items("resources") }),
    readResource: (uri: string) => ok("POST", `/api/v1/servers/${id}/resources/read`, { uri }),
    listPrompts: async () => ({ prompts: await items("prompts") }),
    getPrompt: (name: string) => ok("POST", `/api/v1/servers/${id}/prompts/get`, { name }),
  });
} finally {
  stop = true;
  await api("POST", `/api/v1/servers/${id}/disconnect`).catch(() => {});
  await api("DELETE", `/api/v1/servers/${id}`).catch(() => {});
  events.close();
  void answering;
}
process.exit(0);
