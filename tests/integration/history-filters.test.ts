import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";

type Api = ReturnType<typeof apiClient>;
type Seeded = { id: string; serverId: string; userId: string; name: string; status: string; origin: string; startedAt: Date; text: string; tags: string[] };

const CALLS = 2_400;
// More calls carry "common" than history lists by id (lib/domains/calls/queries.ts TAG_CAP, 2,000): that
// tag is filtered call by call, "rare" through its list of ids; both paths must agree with the data.
// Each attribute cycles with its own prime-ish period, so every combination below has calls.
const tagsOf = (i: number) => [...(i % 8 !== 7 ? ["common"] : []), ...(i % 400 === 3 || i % 400 === 11 ? ["rare"] : [])];

/** Every id of a history query, newest first, page by page so the cursor is exercised with each filter. */
async function allPages(api: Api, query: Record<string, string>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const qs: URLSearchParams = new URLSearchParams({ ...query, limit: "200", ...(cursor ? { cursor } : {}) });
    const res: { status: number; body: { items: { id: string }[]; nextCursor: string | null } } = await api("GET", `/api/v1/calls?${qs}`);
    expect(res.status).toBe(200);
    ids.push(...res.body.items.map((c) => c.id));
    cursor = res.body.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error("history paging did not end");
}

describe("history filters alone and combined, on calls written into the database", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let seeded: Seeded[] = [];
  let servers: string[] = [];
  let me = "";
  const base = Date.parse("2026-11-01T00:00:00Z");

  beforeAll(async () => {
    sb = await startConsole();
    const setup = await setupOwner(sb.url);
    api = setup.api;
    for (const name of ["a", "b", "c"]) servers.push((await api("POST", "/api/v1/servers", { name, url: "http://127.0.0.1:9/mcp" })).body.server.id);
    const body = (await api("GET", "/api/v1/me")).body;
    me = (body.user ?? body).id;
    seeded = Array.from({ length: CALLS }, (_, i) => ({
      id: randomUUID(),
      serverId: servers[i % 3]!,
      userId: i % 4 === 1 ? "someone-else" : me,
      name: `tool_${i % 5}`,
      status: i % 11 === 4 ? "error" : i % 37 === 0 ? "timeout" : "ok",
      origin: i % 7 === 0 ? "app" : i % 53 === 0 ? "gateway" : i % 13 === 6 ? "monitor" : "user",
      // Some calls share a start time, so (startedAt, id) ordering and its cursor are tested too.
      startedAt: new Date(base + Math.floor(i / 2) * 1000),
      text: i % 97 === 5 || i % 400 === 11 ? "a needle here" : "hay",
      tags: tagsOf(i),
    }));
    const statements: [string, ...unknown[]][] = [];
    for (const c of seeded) {
      statements.push([
        `INSERT INTO "call" (id, workspace_id, server_id, user_id, method, name, params, result, status, is_error, request_id, trace_id, origin, started_at, finished_at, duration_ms)
         VALUES (?, ?, ?, ?, 'tools/call', ?, ?, '{}', ?, ?, ?, 'trace', ?, ?, ?, 1)`,
        c.id, setup.workspace.id, c.serverId, c.userId, c.name, JSON.stringify({ text: c.text }), c.status, false, `r-${c.id}`, c.origin, c.startedAt, c.startedAt,
      ]);
      for (const tag of c.tags) statements.push(['INSERT INTO "call_tag" (call_id, tag, workspace_id, created_at) VALUES (?, ?, ?, ?)', c.id, tag, setup.workspace.id, c.startedAt]);
    }
    await sb.db.batch(statements);
  }, 120_000);

  afterAll(async () => {
    await sb?.stop();
  });

  const expected = (keep: (c: Seeded) => boolean) =>
    seeded
      .filter(keep)
      .sort((x, y) => y.startedAt.getTime() - x.startedAt.getTime() || (y.id < x.id ? -1 : y.id > x.id ? 1 : 0))
      .map((c) => c.id);

  it("lists every combination's calls newest first, whether the tag or word is common or rare", async () => {
    const from = new Date(base + 300_000).toISOString();
    const to = new Date(base + 900_000).toISOString();
    const inRange = (c: Seeded) => c.startedAt >= new Date(from) && c.startedAt <= new Date(to);
    const cases: [Record<string, string>, (c: Seeded) => boolean][] = [
      [{ tag: "common" }, (c) => c.tags.includes("common")],
      [{ tag: "rare" }, (c) => c.tags.includes("rare")],
      [{ tag: "common", serverId: servers[1]!, status: "error" }, (c) => c.tags.includes("common") && c.serverId === servers[1] && c.status === "error"],
      [{ tag: "rare", status: "error" }, (c) => c.tags.includes("rare") && c.status === "error"],
      [{ tag: "common", q: "needle" }, (c) => c.tags.includes("common") && c.text.includes("needle")],
      [{ tag: "rare", q: "needle" }, (c) => c.tags.includes("rare") && c.text.includes("needle")],
      [{ serverId: servers[0]!, name: "tool_2", status: "error" }, (c) => c.serverId === servers[0] && c.name === "tool_2" && c.status === "error"],
      [{ origin: "gateway", status: "error" }, (c) => c.origin === "gateway" && c.status === "error"],
      [{ userId: "someone-else", name: "tool_3", from, to }, (c) => c.userId === "someone-else" && c.name === "tool_3" && inRange(c)],
      [{ serverId: servers[2]!, status: "timeout", from, to }, (c) => c.serverId === servers[2] && c.status === "timeout" && inRange(c)],
      [{ tag: "common", origin: "app", name: "tool_1" }, (c) => c.tags.includes("common") && c.origin === "app" && c.name === "tool_1"],
      // Monitors' calls are their own view: left out by default, alone with origin=monitor, with the rest with any.
      [{}, () => true],
      [{ origin: "monitor" }, (c) => c.origin === "monitor"],
      [{ origin: "monitor", status: "error", serverId: servers[1]! }, (c) => c.origin === "monitor" && c.status === "error" && c.serverId === servers[1]],
      [{ origin: "monitor", tag: "common", name: "tool_2" }, (c) => c.origin === "monitor" && c.tags.includes("common") && c.name === "tool_2"],
      [{ origin: "any", name: "tool_4" }, (c) => c.name === "tool_4"],
    ];
    for (const [query, keep] of cases) {
      // Without an origin, history is people's work: no monitor's calls.
      const want = expected((c) => keep(c) && (query.origin !== undefined || c.origin !== "monitor"));
      expect(want.length, JSON.stringify(query)).toBeGreaterThan(0);
      expect(await allPages(api, query), JSON.stringify(query)).toEqual(want);
    }
    expect(seeded.filter((c) => c.origin === "monitor").length).toBeGreaterThan(100);
    expect((await api("GET", "/api/v1/calls?origin=monitors")).status).toBe(400);
    // The common tag is past the id list's cap, so this test covers both paths.
    expect(seeded.filter((c) => c.tags.includes("common")).length).toBeGreaterThan(2_000);
  }, 120_000);
});
