import "server-only";
import { createAuthMiddleware } from "better-auth/api";
import { auditAs, type AuditInput } from "@/lib/core/audit/server";
import type { ClientInfo } from "./index";
import * as q from "./queries";

// The header the request front (lib/start/front.ts) sets from the socket (lib/identity/auth/server.ts reads the same one).
const CLIENT_IP_HEADER = "x-switchboard-client-ip";

function clientOf(headers: Headers | undefined): ClientInfo {
  return { ip: headers?.get(CLIENT_IP_HEADER) || null, userAgent: headers?.get("user-agent")?.slice(0, 500) ?? null };
}

/** One event in each workspace of the user (sign-ins are not tied to one workspace); null when they have none. */
async function recordForUser(user: { id: string; name: string | null }, actorType: "user" | "anonymous", client: ClientInfo, input: AuditInput) {
  const workspaces = await q.listWorkspaceIds({ userId: user.id });
  const actor = actorType === "user" ? { id: user.id, name: user.name } : { id: null, name: null };
  await Promise.all((workspaces.length ? workspaces : [null]).map((workspaceId) => auditAs({ workspaceId, type: actorType, ...actor, client }, input)));
}

/**
 * better-auth hooks that put sign-ins, failed sign-ins and sign-outs in the audit log: the email
 * tried (never the password), the client's address and user agent. A failed sign-in for an
 * unknown address is recorded outside any workspace.
 */
export const authAuditHooks = {
  before: createAuthMiddleware(async (ctx) => {
    if (ctx.path !== "/sign-out") return;
    // Read before the endpoint deletes the session, as sign-out itself does.
    const token = await ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name, ctx.context.secret);
    const found = token ? await ctx.context.internalAdapter.findSession(token).catch(() => null) : null;
    if (!found) return;
    const { user } = found;
    await recordForUser(user, "user", clientOf(ctx.headers), { action: "auth.signed_out", target: { type: "user", id: user.id, name: user.email } });
  }),
  after: createAuthMiddleware(async (ctx) => {
    if (ctx.path !== "/sign-in/email") return;
    const client = clientOf(ctx.headers);
    const created = ctx.context.newSession;
    if (created) {
      const { user } = created;
      await recordForUser(user, "user", client, { action: "auth.signed_in", target: { type: "user", id: user.id, name: user.email } });
      return;
    }
    const body = ctx.body as { email?: unknown } | undefined;
    const email = typeof body?.email === "string" ? body.email.trim().toLowerCase().slice(0, 200) : "";
    const returned = ctx.context.returned as { message?: unknown } | undefined;
    const input: AuditInput = {
      action: "auth.sign_in_failed",
      details: { email, ...(typeof returned?.message === "string" ? { reason: returned.message } : {}) },
    };
    const user = email ? await q.findUserByEmail({ email }) : null;
    if (user) await recordForUser(user, "anonymous", client, { ...input, target: { type: "user", id: user.id, name: user.email } });
    else await auditAs({ workspaceId: null, type: "anonymous", client }, { ...input, target: { type: "user", name: email || null } });
  }),
};
