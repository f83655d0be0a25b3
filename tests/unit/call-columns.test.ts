import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { CALL_COLUMNS, COMPLETION_FIELDS, PENDING_FIELDS, PROGRESS_FIELDS, TASK_FIELDS, type ColumnType } from "@/lib/domains/calls/columns";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA } from "@/scripts/db-schema";

const PRISMA_TYPES: Record<string, ColumnType> = { String: "text", Int: "integer", Float: "double", Boolean: "boolean", DateTime: "timestamp" };

/** The scalar fields of a model as the schema declares them: field → column (its @map) and type. */
function scalarColumns(schema: string, model: string): Record<string, { column: string; type: ColumnType }> {
  const body = new RegExp(`^model ${model} \\{\\n([\\s\\S]*?)^\\}`, "m").exec(schema)?.[1];
  if (!body) throw new Error(`no model ${model}`);
  const out: Record<string, { column: string; type: ColumnType }> = {};
  for (const line of body.split("\n")) {
    const m = /^\s+(\w+)\s+(\w+)(\?|\[\])?(.*)$/.exec(line);
    if (!m || !(m[2]! in PRISMA_TYPES) || m[3] === "[]") continue; // relations, lists, comments, @@ lines
    out[m[1]!] = { column: /@map\("([^"]+)"\)/.exec(m[4]!)?.[1] ?? m[1]!, type: PRISMA_TYPES[m[2]!]! };
  }
  return out;
}

describe("the call journal's column descriptor (lib/domains/calls/columns.ts)", () => {
  for (const [label, file] of [["SQLite", SQLITE_SCHEMA], ["PostgreSQL", POSTGRES_SCHEMA]] as const) {
    it(`names every column of the Call model with its type, no more (${label} schema)`, () => {
      expect(CALL_COLUMNS).toEqual(scalarColumns(fs.readFileSync(file, "utf8"), "Call"));
    });
  }

  it("reads a schema the way Prisma does (the check itself fails on a column the descriptor lacks)", () => {
    const schema = `model Call {\n  id String @id\n  /// doc\n  fooBar  Int? @map("foo_bar")\n  server Server @relation(fields: [id], references: [id])\n  tags String[]\n  @@map("call")\n}\n`;
    expect(scalarColumns(schema, "Call")).toEqual({ id: { column: "id", type: "text" }, fooBar: { column: "foo_bar", type: "integer" } });
  });

  it("each write's fields are columns, each named once", () => {
    for (const fields of [PENDING_FIELDS, COMPLETION_FIELDS, TASK_FIELDS, PROGRESS_FIELDS, [...PENDING_FIELDS, ...COMPLETION_FIELDS]]) {
      expect(new Set(fields).size).toBe(fields.length);
      for (const f of fields) expect(CALL_COLUMNS).toHaveProperty(f);
    }
  });
});
