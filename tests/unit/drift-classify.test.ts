import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, diffSnapshots, sortedData } from "@/lib/watch/drift/classify";
import type { SnapshotData } from "@/lib/watch/drift";

const empty: SnapshotData = { tools: [], prompts: [], resources: [], templates: [] };
const tool = (name: string, inputSchema: Record<string, unknown> = { type: "object" }, extra: Record<string, unknown> = {}) => ({ name, inputSchema, ...extra });
const withTools = (...tools: Record<string, unknown>[]): SnapshotData => ({ ...empty, tools });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, required });

/** The changes of one tool whose input schema goes from `a` to `b`, as [breaking, detail]. */
function toolChanges(a: Record<string, unknown>, b: Record<string, unknown>) {
  return diffSnapshots(withTools(tool("t", a)), withTools(tool("t", b))).map((c) => [c.breaking, c.detail]);
}

describe("capability drift: breaking changes", () => {
  it("a removed tool, prompt, resource or template is breaking; an added one is not", () => {
    const full: SnapshotData = { tools: [tool("t")], prompts: [{ name: "p" }], resources: [{ uri: "file:///r", name: "r" }], templates: [{ uriTemplate: "file:///{x}", name: "x" }] };
    expect(diffSnapshots(full, empty)).toEqual([
      { kind: "tool", name: "t", change: "removed", breaking: true, detail: "tool removed" },
      { kind: "prompt", name: "p", change: "removed", breaking: true, detail: "prompt removed" },
      { kind: "resource", name: "file:///r", change: "removed", breaking: true, detail: "resource removed" },
      { kind: "template", name: "file:///{x}", change: "removed", breaking: true, detail: "resource template removed" },
    ]);
    expect(diffSnapshots(empty, full).map((c) => [c.kind, c.change, c.breaking])).toEqual([
      ["tool", "added", false],
      ["prompt", "added", false],
      ["resource", "added", false],
      ["template", "added", false],
    ]);
  });

  it("a required argument added, or an optional one made required, is breaking", () => {
    expect(toolChanges(obj({ a: { type: "string" } }, ["a"]), obj({ a: { type: "string" }, units: { type: "string" } }, ["a", "units"]))).toEqual([
      [true, 'required argument "units" added'],
    ]);
    expect(toolChanges(obj({ a: { type: "string" } }), obj({ a: { type: "string" } }, ["a"]))).toEqual([[true, 'argument "a" is now required']]);
    expect(toolChanges(obj({ o: obj({}) }), obj({ o: obj({ deep: { type: "number" } }, ["deep"]) }))).toEqual([[true, 'required argument "o.deep" added']]);
  });

  it("a narrowed type is breaking: a type dropped from a union, number to integer, any to one type, one type to another", () => {
    expect(toolChanges(obj({ v: { type: ["string", "number"] } }), obj({ v: { type: "string" } }))).toEqual([[true, 'type of "v" narrowed from number | string to string']]);
    expect(toolChanges(obj({ v: { type: "number" } }), obj({ v: { type: "integer" } }))).toEqual([[true, 'type of "v" narrowed from number to integer']]);
    expect(toolChanges(obj({ v: {} }), obj({ v: { type: "string" } }))).toEqual([[true, 'type of "v" narrowed from any to string']]);
    expect(toolChanges(obj({ v: { type: "string" } }), obj({ v: { type: "boolean" } }))).toEqual([[true, 'type of "v" changed from string to boolean']]);
    expect(toolChanges(obj({ v: { type: "array", items: { type: "number" } } }), obj({ v: { type: "array", items: { type: "integer" } } }))).toEqual([
      [true, 'type of "v[]" narrowed from number to integer'],
    ]);
  });

  it("an enum value removed, or a free value restricted to a list, is breaking", () => {
    expect(toolChanges(obj({ u: { type: "string", enum: ["c", "f", "k"] } }), obj({ u: { type: "string", enum: ["c", "f"] } }))).toEqual([[true, 'enum value "k" of "u" removed']]);
    expect(toolChanges(obj({ u: { type: "string" } }), obj({ u: { type: "string", enum: ["c"] } }))).toEqual([[true, '"u" restricted to the values "c"']]);
  });

  it("a prompt's new required argument, or an argument made required, is breaking", () => {
    const prompt = (args: Record<string, unknown>[]): SnapshotData => ({ ...empty, prompts: [{ name: "p", arguments: args }] });
    const changes = (a: Record<string, unknown>[], b: Record<string, unknown>[]) => diffSnapshots(prompt(a), prompt(b)).map((c) => [c.breaking, c.detail]);
    expect(changes([], [{ name: "lang", required: true }])).toEqual([[true, 'required argument "lang" added']]);
    expect(changes([{ name: "lang" }], [{ name: "lang", required: true }])).toEqual([[true, 'argument "lang" is now required']]);
    expect(changes([], [{ name: "tone" }])).toEqual([[false, 'optional argument "tone" added']]);
    expect(changes([{ name: "lang", required: true }], [{ name: "lang" }])).toEqual([[false, 'argument "lang" is now optional']]);
    expect(changes([{ name: "lang", description: "a" }], [{ name: "lang", description: "b" }])).toEqual([[false, 'description of argument "lang" changed']]);
  });
});

describe("capability drift: changes that break nothing", () => {
  it("an optional argument added, an argument made optional or removed", () => {
    expect(toolChanges(obj({}), obj({ extra: { type: "string" } }))).toEqual([[false, 'optional argument "extra" added']]);
    expect(toolChanges(obj({ a: { type: "string" } }, ["a"]), obj({ a: { type: "string" } }))).toEqual([[false, 'argument "a" is now optional']]);
    expect(toolChanges(obj({ a: { type: "string" } }), obj({}))).toEqual([[false, 'argument "a" removed']]);
  });

  it("descriptions and titles, of tools and of arguments", () => {
    const a = diffSnapshots(withTools(tool("t", obj({}), { description: "old", title: "T" })), withTools(tool("t", obj({}), { description: "new", title: "U" })));
    expect(a.map((c) => [c.change, c.breaking, c.detail])).toEqual([
      ["changed", false, "title changed"],
      ["changed", false, "description changed"],
    ]);
    expect(toolChanges(obj({ a: { type: "string", description: "x" } }), obj({ a: { type: "string", description: "y" } }))).toEqual([[false, 'description of "a" changed']]);
    const resource = (description: string): SnapshotData => ({ ...empty, resources: [{ uri: "file:///r", name: "r", description }] });
    expect(diffSnapshots(resource("a"), resource("b")).map((c) => [c.kind, c.breaking, c.detail])).toEqual([["resource", false, "description changed"]]);
  });

  it("an enum value added, a list of values lifted, a type widened", () => {
    expect(toolChanges(obj({ u: { enum: ["c"] } }), obj({ u: { enum: ["c", "k"] } }))).toEqual([[false, 'enum value "k" of "u" added']]);
    expect(toolChanges(obj({ u: { enum: ["c"] } }), obj({ u: {} }))).toEqual([[false, '"u" no longer restricted to a list of values']]);
    expect(toolChanges(obj({ v: { type: "integer" } }), obj({ v: { type: "number" } }))).toEqual([[false, 'type of "v" widened from integer to number']]);
    expect(toolChanges(obj({ v: { type: "string" } }), obj({ v: { type: ["null", "string"] } }))).toEqual([[false, 'type of "v" widened from string to null | string']]);
    expect(toolChanges(obj({ v: { type: "string" } }), obj({ v: {} }))).toEqual([[false, 'type of "v" widened from string to any']]);
  });

  it("anything else that differs is reported once, as a changed definition", () => {
    const a = diffSnapshots(withTools(tool("t", obj({}), { annotations: { readOnlyHint: true } })), withTools(tool("t", obj({}))));
    expect(a).toEqual([{ kind: "tool", name: "t", change: "changed", breaking: false, detail: "definition changed" }]);
  });

  it("key order does not make a change", () => {
    expect(diffSnapshots(withTools({ name: "t", inputSchema: { type: "object", properties: { a: { type: "string", description: "d" } } } }), withTools({ inputSchema: { properties: { a: { description: "d", type: "string" } }, type: "object" }, name: "t" }))).toEqual([]);
  });
});

// Small generated definitions: names from a short list so two snapshots share some of them.
const json = fc.letrec((tie) => ({
  schema: fc.record(
    {
      type: fc.oneof(fc.constantFrom("string", "number", "integer", "boolean", "object"), fc.subarray(["string", "number", "integer", "null"], { minLength: 1 })),
      description: fc.constantFrom("a", "b"),
      enum: fc.subarray(["x", "y", "z"], { minLength: 1 }),
      properties: fc.dictionary(fc.constantFrom("a", "b", "c"), tie("schema"), { maxKeys: 3 }),
      required: fc.subarray(["a", "b", "c"]),
    },
    { requiredKeys: [] },
  ),
})).schema;
const snapshot: fc.Arbitrary<SnapshotData> = fc.record({
  tools: fc.uniqueArray(fc.record({ name: fc.constantFrom("t1", "t2", "t3"), description: fc.constantFrom("d1", "d2"), inputSchema: json }), { selector: (t) => t.name, maxLength: 3 }),
  prompts: fc.uniqueArray(
    fc.record({ name: fc.constantFrom("p1", "p2"), arguments: fc.uniqueArray(fc.record({ name: fc.constantFrom("a", "b"), required: fc.boolean() }), { selector: (a) => a.name }) }),
    { selector: (p) => p.name, maxLength: 2 },
  ),
  resources: fc.uniqueArray(fc.record({ uri: fc.constantFrom("r://1", "r://2"), name: fc.constantFrom("n1", "n2") }), { selector: (r) => r.uri, maxLength: 2 }),
  templates: fc.uniqueArray(fc.record({ uriTemplate: fc.constantFrom("t://{a}", "t://{b}"), name: fc.constantFrom("n1", "n2") }), { selector: (r) => r.uriTemplate, maxLength: 2 }),
});

describe("capability drift: properties", () => {
  it("diff(a, a) is empty, whatever order the lists came in", () => {
    fc.assert(
      fc.property(snapshot, (a) => {
        expect(diffSnapshots(a, sortedData({ ...a, tools: [...a.tools].reverse() }))).toEqual([]);
      }),
    );
  });

  it("an item added from a to b is removed from b to a, and the same items changed both ways", () => {
    fc.assert(
      fc.property(snapshot, snapshot, (a, b) => {
        const forward = diffSnapshots(a, b);
        const backward = diffSnapshots(b, a);
        const items = (changes: typeof forward, change: string) => changes.filter((c) => c.change === change).map((c) => `${c.kind} ${c.name}`);
        expect(items(forward, "added")).toEqual(items(backward, "removed"));
        expect(items(forward, "removed")).toEqual(items(backward, "added"));
        expect([...new Set(items(forward, "changed"))]).toEqual([...new Set(items(backward, "changed"))]);
        expect(forward.filter((c) => c.change === "removed").every((c) => c.breaking)).toBe(true);
        expect(forward.filter((c) => c.change === "added").every((c) => !c.breaking)).toBe(true);
      }),
    );
  });

  it("a change is reported exactly when the canonical definitions differ", () => {
    fc.assert(
      fc.property(snapshot, snapshot, (a, b) => {
        expect(diffSnapshots(a, b).length === 0).toBe(canonicalJson(sortedData(a)) === canonicalJson(sortedData(b)));
      }),
    );
  });
});
