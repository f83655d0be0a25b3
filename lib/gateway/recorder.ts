import "server-only";
import { beginHostCall } from "@/lib/domains/calls/server";
import type { CallMethod } from "@/lib/mcp/server";
import { credentialUsed } from "@/lib/domains/server-oauth/server";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import type { GatewayPrincipal } from "./auth";
import { outcomeOf } from "./outcome";

/** Whose OAuth credential a connection runs with: looked up once per connection by its holder (the relay's session, the bridge's pooled upstream). */
export type Credential = ReturnType<typeof credentialUsed>;

export function credentialOf(server: ServerSecretRow): Credential {
  return credentialUsed(server).catch(() => null);
}

interface GatewayCallStart {
  server: ServerSecretRow;
  principal: GatewayPrincipal;
  method: CallMethod;
  name: string;
  /** As the host sent them (without `_meta`). */
  params: Record<string, unknown>;
  /** The host ("name version"), when it said. */
  client: string | null;
  credential: Credential;
}

/** One recorded gateway call: finished once, whichever way it ends. */
export interface GatewayCall {
  readonly id: string;
  progress(progress: Record<string, unknown>): void;
  /** The answer the host got. */
  answered(result: Record<string, unknown>): void;
  /** It ended without an answer: the server's error, a timeout, a cancellation, the connection gone (lib/gateway/outcome.ts). */
  failed(err: unknown): void;
}

/**
 * Records a call of either path (origin gateway) through lib/domains/calls' journal: pending before the
 * request leaves (awaited: throws when the row cannot be written), completed once. The host is
 * never kept waiting for the completion (the journal retries until the database takes it).
 */
export async function beginGatewayCall(start: GatewayCallStart): Promise<GatewayCall> {
  const { principal: who } = start;
  const handle = await beginHostCall({
    server: start.server,
    userId: who.userId,
    userName: who.userName,
    method: start.method,
    name: start.name,
    params: start.params,
    origin: "gateway",
    client: start.client,
    credential: await start.credential,
  });
  let finished = false;
  const finish = (outcome: Parameters<typeof handle.finish>[0]) => {
    if (finished) return;
    finished = true;
    void handle.finish(outcome).catch(() => undefined);
  };
  return {
    id: handle.id,
    progress: (progress) => {
      if (!finished) handle.progress(progress);
    },
    answered: (result) => finish({ result }),
    failed: (err) => finish(outcomeOf(err)),
  };
}
