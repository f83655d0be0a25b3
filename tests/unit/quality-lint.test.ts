import fs from "node:fs";
import path from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { LINT_RULES, type DefinitionSet, type LintReport } from "@/lib/domains/quality";
import { lintDefinitions } from "@/lib/domains/quality/lint";
import { TOKENIZER, tokenCost } from "@/lib/domains/quality/tokens";
import { lintExitCode, lintJUnit } from "../../cli/src/lint-report";
import { CLEAN, FAULTY, NOT_OBJECT_TOOL } from "../fixtures/lint-definitions";
import { findAll, parseXml } from "../support/xml";

const set = (file: { tools: object[]; prompts: object[]; resources: object[]; resourceTemplates: object[] }): DefinitionSet =>
  ({ tools: file.tools, prompts: file.prompts, resources: file.resources, templates: file.resourceTemplates }) as DefinitionSet;
const only = (tools: object[]) => ({ tools, prompts: [], resources: [], templates: [] }) as unknown as DefinitionSet;
const rules = (data: DefinitionSet) => lintDefinitions(data).map((f) => `${f.rule} ${f.item}`);

describe("the lint's rules", () => {
  it("finds nothing in a clean definition set", () => {
    expect(lintDefinitions(set(CLEAN))).toEqual([]);
  });

  it("finds each rule's seeded fault, on the item that has it, with the rule's severity", () => {
    const findings = lintDefinitions({ ...set(FAULTY), tools: [...set(FAULTY).tools, NOT_OBJECT_TOOL] });
    expect(new Set(findings.map((f) => f.rule))).toEqual(new Set(LINT_RULES.map((r) => r.id)));
    for (const f of findings) expect(f.severity).toBe(LINT_RULES.find((r) => r.id === f.rule)!.severity);
    expect(findings.map((f) => `${f.rule} ${f.item}`)).toEqual(
      expect.arrayContaining([
        "description-missing tool:list_things",
        "parameter-description tool:list_things",
        "parameter-type tool:list_things",
        "read-only-hint tool:list_things",
        "description-short tool:short",
        "schema-dialect tool:schemaful",
        "schema-ref tool:schemaful",
        "schema-keyword tool:schemaful",
        "output-schema-type tool:arrayed",
        "name-format tool:bad name!",
        "name-duplicate tool:twice",
        "name-case tool:send.message-v2",
        "input-schema-type tool:listless",
      ]),
    );
    // root anyOf, patternProperties and if/then/else: three findings on one tool
    expect(findings.filter((f) => f.rule === "schema-keyword").map((f) => f.message)).toHaveLength(3);
  });

  it("holds tool names to 1–128 characters of A-Z a-z 0-9 _ - .", () => {
    const named = (name: string) => ({ name, description: "A tool described well enough here.", inputSchema: { type: "object" } });
    expect(rules(only([named("a".repeat(128)), named("A_b-c.9")]))).toEqual([]);
    expect(rules(only([named("a".repeat(129))]))).toEqual([`name-format tool:${"a".repeat(129)}`]);
    expect(rules(only([named("")]))).toContain("name-format tool:");
    expect(rules(only([named("tool/x")]))).toEqual(["name-format tool:tool/x"]);
  });

  it("takes readers by their first word only", () => {
    const named = (name: string) => ({ name, description: "A tool described well enough here.", inputSchema: { type: "object" } });
    expect(rules(only([named("getWeather"), named("search-docs"), named("fetch"), named("getaway"), named("listless"), named("forget_it")]))).toEqual([
      "read-only-hint tool:getWeather",
      "read-only-hint tool:search-docs",
      "read-only-hint tool:fetch",
    ]);
    expect(rules(only([{ ...named("get_x"), annotations: { readOnlyHint: false } }]))).toEqual([]);
  });

  it("accepts the 2020-12 dialect with or without a fragment, refuses others and non-strings", () => {
    const dialect = ($schema: unknown) => rules(only([{ name: "t", description: "A tool described well enough here.", inputSchema: { $schema, type: "object" } }]));
    expect(dialect("https://json-schema.org/draft/2020-12/schema")).toEqual([]);
    expect(dialect("https://json-schema.org/draft/2020-12/schema#")).toEqual([]);
    expect(dialect("https://json-schema.org/draft/2019-09/schema")).toEqual(["schema-dialect tool:t"]);
    expect(dialect(7)).toEqual(["schema-dialect tool:t"]);
  });

  it("survives definitions that are not what the specification says (no throw)", () => {
    const odd = { tools: [{ name: 5, inputSchema: "x", outputSchema: null, annotations: "y" }, {}], prompts: [{ arguments: [null, { name: "a" }] }], resources: [{}], templates: [{}] };
    expect(() => lintDefinitions(odd as unknown as DefinitionSet)).not.toThrow();
    expect(rules(odd as unknown as DefinitionSet)).toEqual(expect.arrayContaining(["input-schema-type tool:", "output-schema-type tool:", "parameter-description prompt:"]));
  });
});

describe("the token cost", () => {
  const count = (value: unknown) => countTokens(JSON.stringify(value));

  it("counts each definition's JSON and each non-empty list's JSON", () => {
    const data = set(CLEAN);
    const cost = tokenCost(data);
    expect(cost.items).toEqual([
      ...CLEAN.tools.map((t) => ({ kind: "tool", name: t.name, tokens: count(t) })),
      ...CLEAN.prompts.map((p) => ({ kind: "prompt", name: p.name, tokens: count(p) })),
      ...CLEAN.resources.map((r) => ({ kind: "resource", name: r.uri, tokens: count(r) })),
    ]);
    expect(cost.total).toBe(count(CLEAN.tools) + count(CLEAN.prompts) + count(CLEAN.resources));
    expect(tokenCost({ tools: CLEAN.tools as DefinitionSet["tools"], prompts: [], resources: [] }).total).toBe(count(CLEAN.tools));
  });

  it("counts a special token's text as text instead of refusing it", () => {
    const tool = { name: "t", description: "ends <|endoftext|> here" };
    expect(tokenCost({ tools: [tool], prompts: [], resources: [] }).items[0]!.tokens).toBeGreaterThan(5);
  });

  it("names the installed tokenizer's version", () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../node_modules/gpt-tokenizer/package.json"), "utf8")) as { version: string };
    expect(TOKENIZER).toBe(`o200k_base (gpt-tokenizer ${pkg.version})`);
  });
});

describe("the CLI's gate", () => {
  const report = (findings: LintReport["findings"], total: number): LintReport => ({
    snapshotId: "s1",
    takenAt: "2026-12-02T00:00:00.000Z",
    findings,
    tokens: { total, tokenizer: TOKENIZER, items: [] },
    history: [],
  });
  const warning = { rule: "description-short", severity: "warning", item: "tool:a", message: 'tool "a": <short> & "odd"' } as const;
  const error = { rule: "name-duplicate", severity: "error", item: "tool:b", message: "2 tools share the name \"b\"" } as const;

  it("passes within the budget with warnings only, fails on an error or past the budget", () => {
    expect(lintExitCode({ server: "s", report: report([warning], 100), maxTokens: 100 })).toBe(0);
    expect(lintExitCode({ server: "s", report: report([warning], 101), maxTokens: 100 })).toBe(1);
    expect(lintExitCode({ server: "s", report: report([error], 1) })).toBe(1);
  });

  it("writes well-formed JUnit: a failure per error finding and for the budget, warnings passing", () => {
    const xml = parseXml(lintJUnit({ server: "s", report: report([warning, error], 101), maxTokens: 100 }));
    const cases = findAll(xml, "testcase").map((c) => [c.attributes.name, c.children.map((x) => x.name).join()]);
    expect(cases).toEqual([
      ["description-short tool:a", "system-out"],
      ["name-duplicate tool:b", "failure"],
      ["token budget", "failure"],
    ]);
    expect(findAll(xml, "testsuite")[0]!.attributes).toMatchObject({ tests: "3", failures: "2" });
  });
});
