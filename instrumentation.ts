// Next calls register() once per server process, inside its own module graph (where lib/* server
// modules may load; server.ts cannot import them): the task poller lives here, and the instance
// heartbeat (server.ts) hands it the task calls it takes over from instances that are gone; the
// relay (server.ts) tells the sessions here when an agent's link comes back.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { registerTaskResumer } = await import("@/lib/calls/server");
  registerTaskResumer();
  // An agent that comes back reopens the sessions its servers had.
  const { restoreAgentSessions } = await import("@/lib/servers/server");
  restoreAgentSessions();
}
