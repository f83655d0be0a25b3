import { RateLimiterMemory } from "rate-limiter-flexible";
import { describe, expect, it, vi } from "vitest";
import type { PolicyDecision, PolicyRequest } from "@/lib/domains/policies";
import { ROLES, type Role } from "@/lib/core/access";
import type { GatewayPrincipal } from "@/lib/gateway/auth";
import { admit, refuseArguments, shapeList, type Exposure, type Listed, type Lookup } from "@/lib/gateway/gate";
import { RPC } from "@/lib/gateway/policy";
import type { GatewayRoute } from "@/lib/gateway/routes";

// The one gate both gateway paths ask (lib/gateway/gate.ts), as a table: roles × methods × exposure.

// The engine (lib/domains/policies) is the integration tests'; here a workspace without rules, or one decision.
const engine = vi.hoisted(() => ({ decide: null as null | ((request: PolicyRequest) => PolicyDecision), asked: [] as PolicyRequest[], limiters: {} as Record<string, RateLimiterMemory> }));
vi.mock("@/lib/domains/policies/server", () => ({
  decide: async (request: PolicyRequest) => {
    engine.asked.push(request);
    return engine.decide?.(request) ?? { effect: "allow", rule: null, reason: "No rule matches" };
  },
  listable: async (_subject: unknown, _serverId: string, _kind: string, names: string[]) => new Map(names.map((n) => [n, "allow"])),
  // The database's counters are the integration tests' (policy-rate-limits); here the same limiter in memory.
  sharedLimiter: ({ scope, points, perSeconds }: { scope: string; points: number; perSeconds: number }) => {
    const key = `${scope}:${points}/${perSeconds}`;
    return (engine.limiters[key] ??= new RateLimiterMemory({ points, duration: perSeconds }));
  },
}));

const TOOLS: Listed[] = [
  { name: "search", annotations: { readOnlyHint: true } },
  { name: "write", annotations: { readOnlyHint: false } },
  { name: "read_file", annotations: { readOnlyHint: true } },
  { name: "delete" },
];

type ExposureName = "everything" | "allowList" | "readOnly" | "both";
const EXPOSURES: Record<ExposureName, Exposure> = {
  everything: { tools: null, readOnly: false },
  allowList: { tools: ["search", "write"], readOnly: false },
  readOnly: { tools: null, readOnly: true },
  both: { tools: ["search", "write"], readOnly: true },
};

/** The tools each exposure offers. */
const OFFERED: Record<ExposureName, string[]> = {
  everything: ["search", "write", "read_file", "delete"],
  allowList: ["search", "write"],
  readOnly: ["search", "read_file"],
  both: ["search"],
};

let serial = 0;
function route(exposure: ExposureName, rateLimitPerMinute: number | null = null): GatewayRoute {
  // A server of its own per route: rate-limit counts never leak between rows of the table.
  const serverId = `server-${++serial}`;
  return { workspaceId: "w", workspaceSlug: "acme", serverId, serverName: serverId, enabled: true, ...EXPOSURES[exposure], tools: EXPOSURES[exposure].tools ? [...EXPOSURES[exposure].tools] : null, rateLimitPerMinute };
}

function principal(role: Role): GatewayPrincipal {
  return { userId: "u", userName: "U", workspaceId: "w", role, tokenId: `t-${role}`, oauthClientId: null, limitKey: `token:t-${role}-${++serial}` };
}

/** The server's list, as a path knows it: every name the server lists (whatever the exposure). */
function lookup(at: GatewayRoute, name: string, required: boolean): Lookup & { asked: number } {
  const result = {
    asked: 0,
    required,
    find: async () => {
      result.asked++;
      const item = TOOLS.find((t) => t.name === name);
      return item && { item, route: at };
    },
  };
  return result;
}

const METHODS = ["tools/call", "resources/read", "prompts/get", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "initialize", "completion/complete"];
const NAMES = ["search", "write", "read_file", "delete", "unknown"];

describe("admit(): roles × methods × exposure", () => {
  for (const role of ROLES) {
    for (const method of METHODS) {
      for (const exposure of Object.keys(EXPOSURES) as ExposureName[]) {
        it(`${role} · ${method} · ${exposure}`, async () => {
          for (const name of NAMES) {
            for (const required of [false, true]) {
              const at = route(exposure);
              const found = lookup(at, name, required);
              const refusal = await admit(principal(role), at, method, name, found);
              const recorded = ["tools/call", "resources/read", "prompts/get"].includes(method);
              if (!recorded) {
                expect(refusal, `${name} required=${required}`).toBeNull();
                expect(found.asked).toBe(0);
              } else if (method === "tools/call" && (role === "viewer" || role === "auditor")) {
                expect(refusal).toEqual({ code: RPC.forbidden, message: `${role === "viewer" ? "Viewers" : "Auditors"} cannot call tools, through the gateway either` });
                expect(found.asked, "the role is refused before the list is read").toBe(0);
              } else if (method === "tools/call") {
                // The list is always read (for the tool's inputSchema); the relay (required=false) refuses
                // an unknown name only when the exposure filters, else it goes to the server.
                const filtering = exposure !== "everything";
                const checked = required || filtering;
                expect(found.asked).toBe(1);
                const ok = !checked || OFFERED[exposure].includes(name);
                expect(refusal, `${name} required=${required}`).toEqual(ok ? null : { code: RPC.invalidParams, message: `Tool ${name} is not offered through this gateway` });
              } else if (method === "prompts/get") {
                // Prompts are never filtered by the exposure; the bridge (required) must find the name to route it.
                expect(found.asked).toBe(required ? 1 : 0);
                const ok = !required || name !== "unknown";
                expect(refusal).toEqual(ok ? null : { code: RPC.invalidParams, message: `Prompt ${name} is not offered through this gateway` });
              } else {
                expect(refusal).toBeNull();
                expect(found.asked).toBe(0);
              }
            }
          }
        });
      }
    }
  }
});

describe("admit(): the rate limit", () => {
  it("counts the recorded methods of one token on one server, after the role and the name", async () => {
    const at = route("allowList", 2);
    const member = principal("member");
    const viewer = principal("viewer");
    // Refused before the limit: they take no point.
    expect(await admit(viewer, at, "tools/call", "search")).toMatchObject({ code: RPC.forbidden });
    expect(await admit(member, at, "tools/call", "delete", lookup(at, "delete", false))).toMatchObject({ code: RPC.invalidParams });
    // Not recorded: not counted.
    for (let i = 0; i < 5; i++) expect(await admit(member, at, "tools/list", "")).toBeNull();
    expect(await admit(member, at, "tools/call", "search", lookup(at, "search", false))).toBeNull();
    expect(await admit(member, at, "resources/read", "file:///a")).toBeNull();
    const over = await admit(member, at, "prompts/get", "p");
    expect(over).toMatchObject({ code: RPC.rateLimited, message: expect.stringMatching(/^Rate limit: 2 calls per minute through this gateway; retry in \d+ s$/) });
    expect(((over as { data?: unknown }).data as { retryAfter: number }).retryAfter).toBeGreaterThan(0);
    // Another token, or the same token on another server, has its own count.
    expect(await admit(principal("member"), at, "tools/call", "search")).toBeNull();
    expect(await admit(member, { ...route("everything", 2) }, "tools/call", "search")).toBeNull();
  });

  it("uses the route the lookup found (the aggregated endpoint knows the server only by the name)", async () => {
    const limited = route("everything", 1);
    const member = principal("member");
    const viaLookup = () => lookup(limited, "search", true);
    expect(await admit(member, null, "tools/call", "search", viaLookup())).toBeNull();
    expect(await admit(member, null, "tools/call", "search", viaLookup())).toMatchObject({ code: RPC.rateLimited });
    expect(await admit(member, null, "tools/call", "unknown", lookup(limited, "unknown", true))).toMatchObject({ code: RPC.invalidParams });
  });
});

describe("shapeList(): what a host is offered, methods × exposure", () => {
  const results: Record<string, Record<string, unknown>> = {
    "tools/list": { tools: TOOLS, nextCursor: "c2" },
    "prompts/list": { prompts: [{ name: "greet" }, { name: "write" }] },
    "resources/list": { resources: [{ uri: "file:///a", name: "a" }] },
    "resources/templates/list": { resourceTemplates: [{ uriTemplate: "file:///{path}", name: "file" }] },
    initialize: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } },
    "tools/call": { content: [{ type: "text", text: "search" }] },
  };
  for (const [method, result] of Object.entries(results)) {
    for (const exposure of Object.keys(EXPOSURES) as ExposureName[]) {
      it(`${method} · ${exposure}`, () => {
        const shaped = shapeList(EXPOSURES[exposure], method, result);
        if (method === "tools/list") {
          expect((shaped.tools as Listed[]).map((t) => t.name)).toEqual(OFFERED[exposure]);
          expect(shaped.nextCursor, "the page's other fields stay").toBe("c2");
          if (exposure === "everything") expect(shaped).toBe(result);
        } else {
          expect(shaped, "only tools are filtered").toBe(result);
        }
      });
    }
  }

  it("drops a tool without a string name only when the exposure filters", () => {
    const page = { tools: [{ name: 7 }, { name: "search", annotations: { readOnlyHint: true } }] };
    expect(shapeList(EXPOSURES.everything, "tools/list", page)).toBe(page);
    expect((shapeList(EXPOSURES.readOnly, "tools/list", page).tools as Listed[]).map((t) => t.name)).toEqual(["search"]);
  });
});

describe("admit(): a tool's arguments, against its inputSchema (the API's validator)", () => {
  const schema = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] };
  const sum: Listed = { name: "sum", inputSchema: schema };
  const at = () => route("everything");
  const find = (r: GatewayRoute, required: boolean): Lookup => ({ required, find: async () => ({ item: sum, route: r }) });

  it("refuses arguments that do not match with -32602 naming each path, the problems in data.errors", async () => {
    for (const required of [false, true]) {
      const r = at();
      expect(await admit(principal("member"), r, "tools/call", "sum", find(r, required), { a: 1, b: "two" })).toEqual({
        code: RPC.invalidParams,
        message: "Arguments do not match the tool's input schema: arguments/b: must be number",
        data: { errors: [{ path: "/b", message: "must be number" }] },
      });
    }
    expect(refuseArguments(sum, { a: "one" })?.message).toBe("Arguments do not match the tool's input schema: arguments/b: must have required property 'b'; arguments/a: must be number");
    expect(refuseArguments(sum, undefined)?.data).toEqual({ errors: [{ path: "/a", message: "must have required property 'a'" }, { path: "/b", message: "must have required property 'b'" }] });
    expect(refuseArguments({ name: "s", inputSchema: { type: "object" } }, "text")?.message).toBe("Arguments do not match the tool's input schema: arguments: must be object");
  });

  it("lets matching arguments through, and does not check a tool nobody lists or a prompt's arguments", async () => {
    const r = at();
    expect(await admit(principal("member"), r, "tools/call", "sum", find(r, false), { a: 1, b: 2 })).toBeNull();
    expect(await admit(principal("member"), r, "tools/call", "other", { required: false, find: async () => undefined }, { a: "x" })).toBeNull();
    expect(await admit(principal("member"), r, "prompts/get", "sum", find(r, true), { a: "x" })).toBeNull();
  });

  it("refuses invalid arguments before the rate limit: they take no point of it", async () => {
    const r = route("everything", 1);
    const who = principal("member");
    expect(await admit(who, r, "tools/call", "sum", find(r, true), { a: 1 })).toMatchObject({ code: RPC.invalidParams });
    expect(await admit(who, r, "tools/call", "sum", find(r, true), { a: 1, b: 2 })).toBeNull();
    expect(await admit(who, r, "tools/call", "sum", find(r, true), { a: 1, b: 2 })).toMatchObject({ code: RPC.rateLimited });
  });
});

describe("admit(): the workspace's rules, after the role and the name, before the rate limit", () => {
  const rule = { id: "r1", name: "No /etc" };
  it("answers a rule's refusal as a JSON-RPC error naming the rule (the decision kept for history, not sent)", async () => {
    const at = route("everything", 1);
    engine.decide = (request) => (request.name === "read_file" ? { effect: "deny", rule, reason: 'Rule "No /etc" denies read_file: /path matches ^/etc/' } : null)!;
    try {
      const refusal = await admit(principal("member"), at, "tools/call", "read_file", lookup(at, "read_file", false), { path: "/etc/passwd" });
      expect(refusal).toEqual({ code: RPC.forbidden, message: 'Rule "No /etc" denies read_file: /path matches ^/etc/', data: { ruleId: "r1", reason: 'Rule "No /etc" denies read_file: /path matches ^/etc/' } });
      expect((refusal as { policy?: PolicyDecision }).policy?.rule).toEqual(rule);
      expect(engine.asked.at(-1)).toMatchObject({ serverId: at.serverId, kind: "tool", name: "read_file", arguments: { path: "/etc/passwd" }, subject: { role: "member", tokenId: "t-member", clientId: null } });
      // Refused by the rule: the exposure's limit took no point.
      expect(await admit(principal("member"), at, "tools/call", "search", lookup(at, "search", false))).toBeNull();
      // A viewer is refused by its role before any rule is asked.
      const asked = engine.asked.length;
      expect(await admit(principal("viewer"), at, "tools/call", "read_file")).toMatchObject({ code: RPC.forbidden });
      expect(engine.asked.length).toBe(asked);
    } finally {
      engine.decide = null;
    }
  });

  it("a rule's rate limit is RPC.rateLimited with retryAfter; an approve rule holds the call", async () => {
    const at = route("everything");
    try {
      engine.decide = () => ({ effect: "deny", rule, reason: "Rate limit of rule", limited: true, retryAfter: 7 });
      expect(await admit(principal("member"), at, "resources/read", "file:///a")).toMatchObject({ code: RPC.rateLimited, data: { ruleId: "r1", retryAfter: 7 } });
      expect(engine.asked.at(-1)).toMatchObject({ kind: "resource", name: "file:///a", arguments: { uri: "file:///a" } });
      const approve: PolicyDecision = { effect: "approve", rule, reason: "needs approval", approval: { timeoutSeconds: 5, approverRoles: ["admin"] } };
      engine.decide = () => approve;
      expect(await admit(principal("member"), at, "prompts/get", "p")).toEqual({ hold: approve });
    } finally {
      engine.decide = null;
    }
  });
});
