import "server-only";
import type { ServerSecretRow } from "@/lib/servers/queries";
import { SwitchboardError } from "@/lib/errors";

/** HTTP servers use the SDK's own transports; agent servers get a relay transport. */
export function connectionTransportFor(server: ServerSecretRow) {
  if (server.kind === "http") return undefined;
  if (server.kind === "stdio") {
    throw new SwitchboardError("unavailable", `"${server.name}" is a stdio server: pair an agent that lists it to reach it`);
  }
  throw new SwitchboardError("unavailable", "The agent relay is not available in this build");
}
