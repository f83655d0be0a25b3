import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startFixture, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

// JavaScript's backtracking engine takes minutes on (a+)+$ against 32 a's and a '!'; this many, ages.
const HOSTILE_TEXT = `${"a".repeat(40)}!`;
// Generous for a busy 2-core machine; the console held every request for minutes before.
const PROMPT_MS = 2_000;

/**
 * A server's JSON Schema `pattern` (a tool's inputSchema) and a member's (a collection's schema
 * assertion) run in the console's process against text from outside: they must not hold it.
 */
describe("hostile regular expressions in JSON Schemas", () => {
  let sb: ConsoleHandle;
  let hostile: RunningServer;
  let api: Api;
  let serverId: string;

  beforeAll(async () => {
    [sb, hostile] = await Promise.all([startConsole(), startFixture("hostile-server.ts", { endpoint: "/redos" })]);
    api = (await setupOwner(sb.url)).api;
    serverId = (await api("POST", "/api/v1/servers", { name: "redos", url: hostile.url })).body.server.id;
  });
  afterAll(async () => {
    // A console stuck in a regex never runs its SIGTERM handler.
    await Promise.all([sb?.stop({ crash: true }), hostile?.stop()]);
  });

  /** Other requests, one after another until `work` settles: each is answered within PROMPT_MS. */
  async function answersWhile<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    const done = work.finally(() => (settled = true));
    const slowest: number[] = [];
    do {
      const started = performance.now();
      const res = await fetch(`${sb.url}/api/v1/setup`, { signal: AbortSignal.timeout(PROMPT_MS) }).catch((err: Error) => {
        throw new Error(`another request was not answered within ${PROMPT_MS} ms: ${err.message}`);
      });
      expect(res.status).toBe(200);
      slowest.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 100));
    } while (!settled);
    expect(Math.max(...slowest)).toBeLessThan(PROMPT_MS);
    return done;
  }

  it("checks a tool's argument against a catastrophic pattern without stalling other requests", async () => {
    const ok = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "redos", arguments: { text: "aaaa" } });
    expect(ok.status).toBe(200);
    const refused = await answersWhile(api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "redos", arguments: { text: HOSTILE_TEXT } }));
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.errors).toEqual([{ path: "/text", message: 'must match pattern "(a+)+$"' }]);
  });

  it("runs a collection's schema assertion with that pattern without stalling other requests", async () => {
    const textSchema = { type: "string", pattern: "(a+)+$" };
    const schema = { type: "object", properties: { content: { type: "array", items: { type: "object", properties: { text: textSchema } } } } };
    const step = { serverId, method: "tools/call", name: "echo", arguments: { message: HOSTILE_TEXT }, assert: [{ kind: "schema", schema }] };
    const created = await api("POST", "/api/v1/collections", { name: "redos", steps: [step] });
    expect(created.status).toBe(201);
    const runId = (await api("POST", `/api/v1/collections/${created.body.collection.id}/runs`, {})).body.run.id as string;
    const run = await answersWhile(
      (async () => {
        let found: { status: string; steps: { assertions: { passed: boolean; message: string }[] }[] } | undefined;
        await waitFor(async () => (found = (await api("GET", `/api/v1/runs/${runId}`)).body.run).status !== "running", 30_000);
        return found!;
      })(),
    );
    expect(run.status).toBe("failed");
    expect(run.steps[0]!.assertions[0]).toMatchObject({ passed: false, message: expect.stringContaining('must match pattern "(a+)+$"') });
  });
});
