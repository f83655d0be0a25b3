import { describe, expect, it } from "vitest";
import { isDatabaseOutage, retryOnOutage } from "@/lib/core/db/outage";
import { SwitchboardError } from "@/lib/core/errors";

/** Errors shaped as Prisma and its driver adapters raise them (lib/core/db/faults.ts reads them by shape). */
const prismaWrapped = (originalCode: string) => ({ name: "PrismaClientKnownRequestError", code: "P2010", meta: { driverAdapterError: { cause: { originalCode } } } });
const adapterKind = (kind: string) => ({ name: "DriverAdapterError", cause: { kind } });

describe("isDatabaseOutage: is this step's error the console's own database?", () => {
  it.each([
    ["PostgreSQL terminated the connection (57P01)", prismaWrapped("57P01")],
    ["PostgreSQL starting up (57P03)", prismaWrapped("57P03")],
    ["a connection exception (08006)", prismaWrapped("08006")],
    ["the adapter: database not reachable", adapterKind("DatabaseNotReachable")],
    ["the adapter: connection closed", adapterKind("ConnectionClosed")],
    ["the journal's pg socket refused", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })],
    ["the journal's pg socket reset", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })],
    ["Prisma could not connect at all", { name: "PrismaClientInitializationError", message: "Can't reach database server" }],
    ["SQLite locked", prismaWrapped("SQLITE_BUSY")],
    ["SQLite disk full", prismaWrapped("SQLITE_FULL")],
    ["SQLite write I/O error", prismaWrapped("SQLITE_IOERR_WRITE")],
    ["a call that finished but could not be recorded (the fault as its cause)", Object.assign(new SwitchboardError("unavailable", "The call finished (ok) but could not be recorded yet"), { cause: prismaWrapped("57P01") })],
  ])("%s: yes", (_, err) => {
    expect(isDatabaseOutage(err)).toBe(true);
  });

  it.each([
    ["a plain error", new Error("boom")],
    ["a server's failure", new SwitchboardError("upstream_error", "The server answered 500")],
    ["an agent offline (503, but not the database)", new SwitchboardError("unavailable", 'agent offline: the agent serving "x" is not connected')],
    ["a unique violation (a conflict, not an outage)", { name: "PrismaClientKnownRequestError", code: "P2002" }],
    ["a character the database cannot store (the request is wrong)", prismaWrapped("22021")],
    ["nothing", undefined],
    ["a string", "57P01"],
  ])("%s: no", (_, err) => {
    expect(isDatabaseOutage(err)).toBe(false);
  });

  it("looks through a few causes, not forever", () => {
    const deep = (n: number): unknown => (n === 0 ? prismaWrapped("57P01") : { message: "wrapped", cause: deep(n - 1) });
    expect(isDatabaseOutage(deep(3))).toBe(true);
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(isDatabaseOutage(loop)).toBe(false);
  });
});

describe("retryOnOutage", () => {
  it("tries again through an outage until the write lands", async () => {
    let calls = 0;
    const value = await retryOnOutage({ attempt: async () => (++calls < 3 ? Promise.reject(prismaWrapped("57P01")) : "done"), deadlineMs: 5000 });
    expect([value, calls]).toEqual(["done", 3]);
  });

  it("throws any other error at once", async () => {
    let calls = 0;
    await expect(retryOnOutage({ attempt: async () => (++calls, Promise.reject(new Error("a bug"))), deadlineMs: 5000 })).rejects.toThrow("a bug");
    expect(calls).toBe(1);
  });

  it("gives up after its deadline with the last error", async () => {
    let calls = 0;
    const started = Date.now();
    await expect(retryOnOutage({ attempt: async () => (++calls, Promise.reject(adapterKind("DatabaseNotReachable"))), deadlineMs: 400 })).rejects.toMatchObject({ name: "DriverAdapterError" });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});
