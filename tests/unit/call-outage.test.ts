import { afterEach, describe, expect, it, vi } from "vitest";
import { SwitchboardError } from "@/lib/core/errors";

const completions = vi.hoisted(() => ({ written: [] as { id: string; status: string; error: string | null }[] }));
vi.mock("@/lib/domains/calls/complete", () => ({
  completeDurably: async (id: string, data: { status: string; error: string | null }) => void completions.written.push({ id, status: data.status, error: data.error }),
}));

const { ownOutageOutcome, refuseOwnOutage, unsentOnOutage } = await import("@/lib/domains/calls/outage");

/** What lib/mcp hands runCall when the outbound fetch's read of the workspace's network policy met a cut connection. */
const cutMidCall = Object.assign(new Error("terminating connection due to administrator command"), {
  name: "McpError",
  kind: "unknown",
  cause: { name: "DriverAdapterError", message: "terminating connection due to administrator command", cause: { originalCode: "57P01", kind: "postgres" } },
});

/** Issue 38: a failure of the console's own database during a call is never recorded as the server's outcome. */
describe("a call its own database failed in the middle of (lib/domains/calls/outage.ts)", () => {
  afterEach(() => void (completions.written.length = 0));

  it("is recorded interrupted, not error, and answered 503 with Retry-After naming the call", async () => {
    const refused = await refuseOwnOutage({ id: "call-1", err: cutMidCall, startedAt: new Date() }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(SwitchboardError);
    expect((refused as SwitchboardError).status).toBe(503);
    expect((refused as SwitchboardError).details).toMatchObject({ callId: "call-1", retryAfter: 2 });
    expect(completions.written).toEqual([{ id: "call-1", status: "interrupted", error: expect.stringContaining('"kind":"interrupted"') }]);
  });

  it("leaves the server's own failures to the classifier", async () => {
    // The server's refused connection carries the same socket code a database's would.
    const refusedByServer = Object.assign(new Error("fetch failed"), { name: "McpError", cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }) });
    await refuseOwnOutage({ id: "call-2", err: refusedByServer, startedAt: new Date() });
    expect(() => unsentOnOutage(refusedByServer)).not.toThrow();
    await refuseOwnOutage({ id: "call-3", err: new SwitchboardError("upstream_error", "The server answered 500"), startedAt: new Date() });
    expect(completions.written).toEqual([]);
  });

  it("through the gateway, is recorded interrupted; a server's refused connection stays the classifier's", () => {
    expect(ownOutageOutcome(cutMidCall)).toEqual({ status: "interrupted", error: { kind: "interrupted", message: expect.stringContaining("database") } });
    const refusedByServer = Object.assign(new Error("fetch failed"), { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }) });
    expect(ownOutageOutcome(refusedByServer)).toBeNull();
  });

  it("before anything was sent (opening a session), a 503 and no call", () => {
    expect(() => unsentOnOutage(cutMidCall)).toThrow(SwitchboardError);
    expect(() => unsentOnOutage(new Error("boom"))).not.toThrow();
    expect(completions.written).toEqual([]);
  });
});
