import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { CALL_ORIGINS, CSV_COLUMNS, ANY_ORIGIN } from "@/lib/domains/calls";
import { ExportCallsQuerySchema } from "@/lib/domains/calls/schemas";
import { ERROR_STATUS } from "@/lib/core/errors";
import { VIEW_FILTER_KEYS } from "@/lib/domains/reviews/schemas";

const ROOT = path.resolve(import.meta.dirname, "../..");
const API_MD = fs.readFileSync(path.join(ROOT, "docs/api.md"), "utf8");

/**
 * A DTO the doc declares: "(`CallDto` in `lib/domains/calls/index.ts`): `{ id, status: "ok"|"error", … }`".
 * The braces list every field (a `…` inside makes the list partial); a field written with string
 * literals (`"a"|"b"|null`) lists every value its type allows; a field written `{ … }` is checked
 * the same way against the field's own type.
 */
interface Declaration {
  name: string;
  file: string;
  body: string;
  line: number;
}

function declarations(markdown: string): Declaration[] {
  const found: Declaration[] = [];
  for (const m of markdown.matchAll(/\(`(\w+)` in\s+`(lib\/[\w/.-]+\.ts)`\)[^`]*`(\{[^`]*\})`/g)) {
    found.push({ name: m[1]!, file: m[2]!, body: m[3]!, line: markdown.slice(0, m.index).split("\n").length });
  }
  return found;
}

interface Field {
  name: string;
  optional: boolean;
  spec: string | null;
}

/** `{ a, b?: "x"|"y", c: { d } }` → its top-level fields, and whether the list says it is partial. */
function fields(body: string): { fields: Field[]; partial: boolean } {
  const inner = body.trim().replace(/^\{/, "").replace(/\}$/, "");
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of inner) {
    if (ch === "{" || ch === "[") depth++;
    if (ch === "}" || ch === "]") depth--;
    if (ch === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  const out: Field[] = [];
  let partial = false;
  for (const raw of parts.map((p) => p.replace(/\s+/g, " ").trim()).filter(Boolean)) {
    if (raw === "…" || raw === "...") {
      partial = true;
      continue;
    }
    const m = /^"?(\w+)"?(\?)?(?::\s*(.+))?$/s.exec(raw);
    if (!m) throw new Error(`cannot read the field "${raw}" in ${body}`);
    out.push({ name: m[1]!, optional: Boolean(m[2]), spec: m[3] ?? null });
  }
  return { fields: out, partial };
}

const LITERALS = /^(?:"[^"]*"|null)(?:\s*\|\s*(?:"[^"]*"|null))*$/;

let program: { checker: ts.TypeChecker; source: (file: string) => ts.SourceFile } | undefined;
function compiler() {
  if (program) return program;
  const files = [...new Set(declarations(API_MD).map((d) => path.join(ROOT, d.file)))];
  const p = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    jsx: ts.JsxEmit.ReactJSX,
    resolveJsonModule: true,
    baseUrl: ROOT,
    paths: { "@/*": ["./*"] },
    types: ["node"],
  });
  program = { checker: p.getTypeChecker(), source: (file) => p.getSourceFile(path.join(ROOT, file))! };
  return program;
}

function exportedType(file: string, name: string): ts.Type {
  const { checker, source } = compiler();
  const module = checker.getSymbolAtLocation(source(file));
  const symbol = module && checker.getExportsOfModule(module).find((s) => s.name === name);
  if (!symbol) throw new Error(`${file} exports no ${name}`);
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return checker.getDeclaredTypeOfSymbol(target);
}

/** The string literals (and null) a type allows, or null when it allows more than literals. */
function literalsOf(type: ts.Type): string[] | null {
  const members = type.isUnion() ? type.types : [type];
  const values: string[] = [];
  for (const t of members) {
    if (t.isStringLiteral()) values.push(JSON.stringify(t.value));
    else if (t.flags & ts.TypeFlags.Null) values.push("null");
    else if (t.flags & ts.TypeFlags.Undefined) continue;
    else return null;
  }
  return values.sort();
}

/** The disagreements between a field list in the doc and a type, as sentences. */
function compare(where: string, body: string, type: ts.Type): string[] {
  const { checker } = compiler();
  const object = checker.getNonNullableType(type);
  const properties = new Map(checker.getPropertiesOfType(object).map((p) => [p.name, p]));
  const listed = fields(body);
  const problems: string[] = [];
  for (const field of listed.fields) {
    const property = properties.get(field.name);
    if (!property) {
      problems.push(`${where}: the doc lists "${field.name}", which the type does not have`);
      continue;
    }
    const fieldType = checker.getTypeOfSymbol(property);
    if (field.spec && LITERALS.test(field.spec)) {
      const doc = field.spec.split("|").map((v) => v.trim()).sort();
      const code = literalsOf(fieldType);
      if (JSON.stringify(doc) !== JSON.stringify(code)) problems.push(`${where}.${field.name}: the doc says ${doc.join("|")}, the type ${code?.join("|") ?? checker.typeToString(fieldType)}`);
    } else if (field.spec?.startsWith("{")) {
      problems.push(...compare(`${where}.${field.name}`, field.spec, fieldType));
    }
  }
  if (!listed.partial) {
    const names = new Set(listed.fields.map((f) => f.name));
    for (const name of properties.keys()) if (!names.has(name)) problems.push(`${where}: the type has "${name}", which the doc does not list`);
  }
  return problems;
}

/** A comma-separated list of backticked names in the doc's sentence that starts with `lead`. */
function listAfter(lead: string): string[] {
  const at = API_MD.indexOf(lead);
  if (at < 0) throw new Error(`docs/api.md no longer says "${lead}"`);
  const sentence = API_MD.slice(at + lead.length).split(/[;.]\s|\)/)[0]!;
  return [...sentence.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

describe("docs/api.md against the code", () => {
  // The compiler reads the DTOs' modules and everything they import: seconds on a loaded machine.
  beforeAll(() => void compiler(), 120_000);

  it("declares its DTOs with a field list each", () => {
    const names = declarations(API_MD).map((d) => d.name);
    for (const dto of ["ServerDto", "CallDto", "CallError", "CallCredential", "CallTask", "InteractionDto", "NoteDto", "SavedViewDto", "LogLineDto", "TrafficMessageDto"]) {
      expect(names).toContain(dto);
    }
  });

  it("lists every field of each DTO it declares, and each enum's values, as the types have them", () => {
    const problems = declarations(API_MD).flatMap((d) => compare(`${d.name} (docs/api.md:${d.line})`, d.body, exportedType(d.file, d.name)));
    expect(problems).toEqual([]);
  });

  it("notices a field the doc does not list (the check itself works)", () => {
    const server = declarations(API_MD).find((d) => d.name === "ServerDto")!;
    const withoutName = server.body.replace(/\bname, /, "");
    expect(compare("ServerDto", withoutName, exportedType(server.file, "ServerDto"))).toEqual([`ServerDto: the type has "name", which the doc does not list`]);
    const fewerKinds = server.body.replace(/\|"demo"/, "");
    expect(compare("ServerDto", fewerKinds, exportedType(server.file, "ServerDto"))).toHaveLength(1);
  });

  it("has the closed set of error codes in its table", () => {
    const table = [...API_MD.matchAll(/^\| (\w+) \| (\d{3}) \|$/gm)].map((m) => [m[1], Number(m[2])]);
    expect(Object.fromEntries(table)).toEqual(ERROR_STATUS);
  });

  it("names every history origin filter value", () => {
    expect(listAfter("`origin` is one of ").sort()).toEqual([...CALL_ORIGINS, ANY_ORIGIN].sort());
    expect(listAfter("`byOrigin` all origins (").sort()).toEqual([...CALL_ORIGINS].sort());
  });

  it("names the export's filters and CSV columns as the code has them", () => {
    const filters = Object.keys(ExportCallsQuerySchema.shape).filter((k) => k !== "format");
    expect(listAfter("The same filters as `GET /api/v1/calls` (").sort()).toEqual(filters.sort());
    expect(API_MD).toContain(`header row \`${CSV_COLUMNS.join(",")}\``);
  });

  it("names the saved views' filter keys as the code has them", () => {
    expect(listAfter("`filters` holds history query\nparameters as strings (").sort()).toEqual([...VIEW_FILTER_KEYS].sort());
  });

  it("heads each endpoint section with methods the route has (app/api/v1/**/route.ts)", () => {
    const routes = new Map<string, string[]>();
    const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name === "route.ts" ? [path.join(dir, e.name)] : []));
    for (const file of walk(path.join(ROOT, "app/api/v1"))) {
      const pattern = `/${path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep).join("/")}`.replace(/\[(\w+)\]/g, ":_");
      routes.set(pattern, [...fs.readFileSync(file, "utf8").matchAll(/^export const (GET|POST|PUT|PATCH|DELETE)\b/gm)].map((m) => m[1]!));
    }
    // The relay's WebSocket is server.ts's upgrade, not a route.
    const headings = [...API_MD.matchAll(/^### (?!WebSocket).*?`((?:GET|POST|PUT|PATCH|DELETE)(?:\|(?:GET|POST|PUT|PATCH|DELETE))*) (\/api\/v1\/[^`?\s]*)/gm)];
    expect(headings.length).toBeGreaterThan(50);
    const wrong = headings.flatMap(([, methods, route]) => {
      const pattern = route!.replace(/:\w+/g, ":_");
      // A parameter segment of the code (`[kind]`) stands for the names the doc spells out (`tools`).
      const found = routes.get(pattern) ?? [...routes].find(([p]) => new RegExp(`^${p.replace(/:_/g, "[^/]+")}$`).test(pattern))?.[1];
      return methods!.split("|").filter((m) => !found?.includes(m)).map((m) => `${m} ${route}`);
    });
    expect(wrong).toEqual([]);
  });
});
