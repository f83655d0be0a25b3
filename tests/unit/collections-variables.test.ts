import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SwitchboardError } from "@/lib/core/errors";
import { interpolate, jsonPointer, parsePointer, resolveServerId, toPointer, type VariableScope } from "@/lib/domains/collections/variables";

const login = { content: [{ type: "text", text: "signed in" }], structuredContent: { token: "t-123", user: { id: 7, roles: ["a", "b"] } } };
const scope = (over: Partial<VariableScope> = {}): VariableScope => ({
  variables: { city: "Oslo", count: 3, flag: false, nothing: null, filters: { a: 1 }, list: [1, "x"] },
  steps: [
    { id: "login", result: login },
    { id: "list", result: { tools: [{ name: "echo" }, { name: "add" }] } },
  ],
  servers: { api: "srv_staging", srv_prod: "srv_staging2" },
  ...over,
});

function thrown(fn: () => unknown): SwitchboardError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SwitchboardError);
    return err as SwitchboardError;
  }
  throw new Error("expected a throw");
}

describe("jsonPointer", () => {
  const doc = { a: { "b/c": [10, { "~x": true }] }, "": "empty key", n: null };
  it.each([
    ["", doc],
    ["/a/b~1c/0", 10],
    ["/a/b~1c/1/~0x", true],
    ["/", "empty key"],
    ["/n", null],
  ])("finds %s", (pointer, value) => {
    expect(jsonPointer(doc, pointer)).toEqual({ found: true, value });
  });
  it.each(["/a/missing", "/a/b~1c/2", "/a/b~1c/01", "/a/b~1c/-", "/n/x", "a", "/a/b~1c/0/x"])("finds nothing at %s", (pointer) => {
    expect(jsonPointer(doc, pointer).found).toBe(false);
  });
  it("does not find inherited properties", () => {
    expect(jsonPointer({}, "/toString").found).toBe(false);
    expect(jsonPointer([1], "/length").found).toBe(false);
  });

  it("round-trips any path built with toPointer (property)", () => {
    const key = fc.string({ maxLength: 6 });
    fc.assert(
      fc.property(fc.array(key, { maxLength: 5 }), fc.jsonValue(), (keys, leaf) => {
        const doc = keys.reduceRight<unknown>((inner, k) => ({ [k]: inner }), leaf);
        expect(parsePointer(toPointer(keys))).toEqual(keys);
        const found = jsonPointer(doc, toPointer(keys));
        expect(found.found).toBe(true);
        expect(found.value).toEqual(leaf);
      }),
    );
  });
});

describe("interpolate", () => {
  it("keeps the JSON type of a value that is the whole string", () => {
    expect(interpolate({ n: "{{count}}", f: "{{flag}}", z: "{{nothing}}", o: "{{ filters }}", l: "{{list}}" }, scope())).toEqual({
      n: 3,
      f: false,
      z: null,
      o: { a: 1 },
      l: [1, "x"],
    });
  });

  it("writes values as text inside a longer string (JSON for objects)", () => {
    expect(interpolate("weather in {{city}} x{{count}} {{filters}} {{nothing}} {{flag}}", scope())).toBe('weather in Oslo x3 {"a":1} null false');
  });

  it("goes deep through arrays and objects and leaves other values alone", () => {
    expect(interpolate({ a: [{ b: "{{city}}" }, 2, true, null], c: "plain" }, scope())).toEqual({ a: [{ b: "Oslo" }, 2, true, null], c: "plain" });
  });

  it("reads an earlier step's result by id and by 1-based position", () => {
    expect(interpolate("{{steps.login#/structuredContent/token}}", scope())).toBe("t-123");
    expect(interpolate("{{steps.1#/structuredContent/user/id}}", scope())).toBe(7);
    expect(interpolate("Bearer {{steps.login#/structuredContent/token}} for {{steps.2#/tools/1/name}}", scope())).toBe("Bearer t-123 for add");
    expect(interpolate("{{steps.2}}", scope())).toEqual({ tools: [{ name: "echo" }, { name: "add" }] });
  });

  it("refuses a reference to a step that has not run (a later step) naming it", () => {
    const later = thrown(() => interpolate({ q: "{{steps.3#/x}}" }, scope()));
    expect(later.code).toBe("unprocessable");
    expect(later.message).toMatch(/steps\.3#\/x.*step 3 has not run before this one/);
    expect(thrown(() => interpolate("{{steps.logout#/x}}", scope())).message).toMatch(/step "logout" has not run before this one/);
  });

  it("refuses a pointer that finds nothing, naming the step and the pointer", () => {
    const err = thrown(() => interpolate("{{steps.login#/structuredContent/nope}}", scope()));
    expect(err.message).toContain('step "login" has nothing at /structuredContent/nope');
    expect(thrown(() => interpolate("{{steps.1#nope}}", scope())).message).toMatch(/not a JSON pointer/);
  });

  it("refuses a missing variable, naming it", () => {
    const err = thrown(() => interpolate({ deep: ["ok", "{{town}}"] }, scope()));
    expect(err.code).toBe("unprocessable");
    expect(err.message).toContain('no variable "town"');
    expect(err.details).toEqual({ variable: "town" });
  });
});

describe("resolveServerId", () => {
  it("maps an alias through the environment's servers", () => {
    expect(resolveServerId("{{api}}", scope())).toBe("srv_staging");
  });
  it("maps a real server id the environment lists, and keeps one it does not", () => {
    expect(resolveServerId("srv_prod", scope())).toBe("srv_staging2");
    expect(resolveServerId("srv_other", scope())).toBe("srv_other");
  });
  it("takes a server id from a variable, then maps it too", () => {
    expect(resolveServerId("{{target}}", scope({ variables: { target: "srv_prod" } }))).toBe("srv_staging2");
  });
  it("refuses an unknown alias and a non-string id", () => {
    expect(thrown(() => resolveServerId("{{db}}", scope())).message).toContain('no server alias "db"');
    expect(thrown(() => resolveServerId("{{count}}", scope())).message).toMatch(/not a server id/);
  });
});
