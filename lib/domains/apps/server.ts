import "server-only";
import { config } from "@/lib/core/config";
import type { RequestHead } from "@/lib/core/access";
import type { Principal } from "@/lib/core/access";
import type { CallDto } from "@/lib/domains/calls";
import { getCall, runCall } from "@/lib/domains/calls/server";
import { SwitchboardError } from "@/lib/core/errors";
import type { ToolDefinition } from "@/lib/mcp";
import { getServerForCall } from "@/lib/domains/servers/server";
import { getConnection } from "@/lib/domains/sessions/server";
import { isVisibleToApps, toolResourceUri, type AppCallTool, type AppReadResource, type CallAppInfo } from "./index";
import { sandboxPort } from "./sandbox-server";

/**
 * Where browsers load the sandbox proxy page: `SWITCHBOARD_SANDBOX_ORIGIN` in production (a host
 * name of its own), otherwise the console's host name on the sandbox port lib/start opened.
 */
function sandboxOrigin(request: RequestHead): { origin: string } | { error: string } {
  const consoleUrl = new URL(request.url);
  const host = request.headers.get("host") ?? consoleUrl.host;
  const consoleOrigin = `${consoleUrl.protocol}//${host}`;
  let origin: string;
  const configured = config().sandboxOrigin;
  if (configured) {
    origin = new URL(configured).origin;
  } else {
    const { port } = sandboxPort();
    if (!port) return { error: "The app sandbox is not running (the console was not started through server.ts)" };
    origin = `${consoleUrl.protocol}//${new URL(`http://${host}`).hostname}:${port}`;
  }
  if (origin === consoleOrigin) return { error: "The app sandbox must be served from another origin than the console" };
  return { origin };
}

async function serverTools(principal: Principal, serverId: string): Promise<ToolDefinition[]> {
  const server = await getServerForCall(principal, serverId);
  const { connection } = await getConnection(server);
  return connection.tools();
}

/** The hosting call and its tool; throws when the call did not (or cannot) host an app. */
async function hostingCall(principal: Principal, callId: string): Promise<{ call: CallDto; tool: ToolDefinition; resourceUri: string }> {
  const call = await getCall(principal, callId);
  if (call.method !== "tools/call") throw new SwitchboardError("forbidden", "Only a tools/call result can host an app");
  let tools: ToolDefinition[];
  try {
    tools = await serverTools(principal, call.serverId);
  } catch (err) {
    if (err instanceof SwitchboardError && err.code === "conflict") throw err; // archived server
    throw new SwitchboardError("unavailable", `The app's server cannot be reached: ${(err as Error).message}`);
  }
  const tool = tools.find((t) => t.name === call.name);
  const resourceUri = tool ? toolResourceUri(tool) : null;
  if (!tool || !resourceUri) throw new SwitchboardError("forbidden", `Tool "${call.name}" declares no app (_meta.ui.resourceUri)`);
  return { call, tool, resourceUri };
}

/**
 * Whether a stored call hosts an app, and where its sandbox lives. `reason` is set only when the
 * tool declares an app that cannot be hosted; no app (or no way to tell, the server being
 * unreachable) is `{ app: null, reason: null }`, and the plain result speaks for itself.
 */
export async function getCallApp(principal: Principal, callId: string, request: RequestHead): Promise<CallAppInfo> {
  const call = await getCall(principal, callId);
  const none = { app: null, reason: null };
  if (call.method !== "tools/call") return none;
  const tool = await serverTools(principal, call.serverId)
    .then((tools) => tools.find((t) => t.name === call.name))
    .catch(() => undefined);
  const resourceUri = tool ? toolResourceUri(tool) : null;
  if (!tool || !resourceUri) return none;
  const sandbox = sandboxOrigin(request);
  if ("error" in sandbox) return { app: null, reason: sandbox.error };
  return { app: { resourceUri, tool: { ...tool }, sandboxUrl: `${sandbox.origin}/sandbox` }, reason: null };
}

/**
 * A `tools/call` from an app: only to the hosting call's own server, only to tools visible to
 * apps. Recorded as a call with origin "app" whose parent is the hosting call.
 */
export async function callAppTool(principal: Principal, callId: string, body: AppCallTool): Promise<CallDto> {
  const { call } = await hostingCall(principal, callId);
  const tool = (await serverTools(principal, call.serverId)).find((t) => t.name === body.name);
  const server = call.serverName ? `"${call.serverName}"` : "its server";
  if (!tool) {
    throw new SwitchboardError("not_found", `The app's server ${server} has no tool "${body.name}"; an app can call only its own server's tools`);
  }
  if (!isVisibleToApps(tool)) {
    throw new SwitchboardError("forbidden", `Tool "${body.name}" is not visible to apps (its _meta.ui.visibility does not include "app")`);
  }
  return runCall(principal, {
    serverId: call.serverId,
    method: "tools/call",
    name: body.name,
    params: { name: body.name, arguments: body.arguments },
    origin: "app",
    parentCallId: call.id,
  });
}

/** A `resources/read` for an app (its own UI resource included): the hosting call's server only. */
export async function readAppResource(principal: Principal, callId: string, body: AppReadResource): Promise<CallDto> {
  const { call } = await hostingCall(principal, callId);
  return runCall(principal, {
    serverId: call.serverId,
    method: "resources/read",
    name: body.uri,
    params: { uri: body.uri },
    origin: "app",
    parentCallId: call.id,
  });
}
