/** A strict RFC 4180 reader for tests: fails loudly on anything a writer should not produce. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), (i += 2);
      else if (ch === '"') (quoted = false), i++;
      else (field += ch), i++;
      continue;
    }
    if (ch === '"') {
      if (field !== "") throw new Error(`quote inside an unquoted field at ${i}`);
      quoted = true;
      i++;
    } else if (ch === ",") {
      row.push(field);
      field = "";
      i++;
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += 2;
    } else if (ch === "\r" || ch === "\n") {
      throw new Error(`bare line break in an unquoted field at ${i}`);
    } else {
      field += ch;
      i++;
    }
  }
  if (quoted) throw new Error("unterminated quoted field");
  if (field !== "" || row.length) throw new Error("last record has no CRLF");
  return rows;
}
