import { describe, expect, it } from "vitest";
import { ROUTE_ACCESS, roleAtLeast } from "@/lib/core/access";
import { actionableEvents, mayActOn } from "@/lib/watch/alerts";
import { serverState } from "@/components/servers/server-status";
import type { SessionInfo } from "@/lib/domains/servers";

describe("who may act on an alert (the unread count and the live notice)", () => {
  it("reads the role from the matrix: monitors' incidents for those who edit monitors, breaking changes for those who edit servers", () => {
    expect(mayActOn("viewer", "failing")).toBe(false);
    expect(mayActOn("member", "failing")).toBe(roleAtLeast("member", ROUTE_ACCESS["PATCH /api/v1/monitors/:id"] as "member"));
    expect(mayActOn("member", "slow")).toBe(true);
    expect(mayActOn("member", "breaking-change")).toBe(false);
    expect(mayActOn("admin", "breaking-change")).toBe(true);
    expect(mayActOn("owner", "recovered")).toBe(false);
    expect(mayActOn("owner", "something-new")).toBe(false);
    expect(actionableEvents("viewer")).toEqual([]);
    expect(actionableEvents("owner")).toEqual(["failing", "slow", "breaking-change", "definitions-withheld"]);
  });
});

describe("a server's one status", () => {
  const session = (s: Partial<SessionInfo>) => ({ health: null, healthError: null, error: null, errorKind: null, ...s }) as SessionInfo;
  it("derives one word from the session, its last ping and the sign-in", () => {
    expect(serverState({ status: "connected", session: session({ health: "healthy" }) })).toMatchObject({ state: "connected", label: "connected", problem: false });
    const dead = serverState({ status: "connected", session: session({ health: "unhealthy", healthError: "Connection refused by 127.0.0.1:9" }) });
    expect(dead).toMatchObject({ state: "unhealthy", label: "unhealthy", problem: true });
    expect(dead.reason).toContain("Connection refused by 127.0.0.1:9");
    expect(serverState({ status: "error", session: session({ error: "DNS lookup failed" }) })).toMatchObject({ state: "unreachable", reason: expect.stringContaining("DNS lookup failed") });
    expect(serverState({ status: "offline" })).toMatchObject({ state: "unreachable", reason: "Its agent is away" });
    expect(serverState({ status: "waiting" }).state).toBe("unreachable");
    expect(serverState({ status: "disconnected" })).toMatchObject({ state: "disconnected", problem: false });
    expect(serverState({ status: "reconnecting" }).state).toBe("reconnecting");
    // A missing sign-in wins over an open session (someone else's, or one whose token was revoked).
    expect(serverState({ status: "connected", authMode: "oauth-per-member", session: session({ health: "healthy" }) }, { signedIn: false })).toMatchObject({ state: "signed-out", label: "signed out" });
    expect(serverState({ status: "connected", authMode: "oauth-per-member" }, { signedIn: true }).state).toBe("connected");
    expect(serverState({ status: "connected", authMode: "oauth-machine" }, { signedIn: false }).state).toBe("connected");
    // A list has no OAuth status at hand: a last connect refused for want of a sign-in reads the same,
    // by the kind the session recorded, whatever its text (the server renamed since, say).
    const refused = { status: "error" as const, name: "renamed since", authMode: "oauth-per-member" as const, session: session({ error: '"guarded" needs your own sign-in: sign in to guarded first', errorKind: "sign_in_required" }) };
    expect(serverState(refused).state).toBe("signed-out");
    expect(serverState({ ...refused, authMode: "oauth-shared" as const }).state).toBe("signed-out");
    expect(serverState({ ...refused, authMode: "none" as const }).state).toBe("unreachable");
    expect(serverState({ ...refused, session: session({ error: '"guarded" needs more access: sign in again to consent', errorKind: "step_up_required" }) }).state).toBe("unreachable");
    expect(serverState({ ...refused, session: session({ error: '"guarded" needs your own sign-in: sign in to guarded first' }) }).state).toBe("unreachable");
  });
});
