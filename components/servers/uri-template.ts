/** The variable names of an RFC 6570 URI template, e.g. `file:///{path}` or `x://{a}{?b,c}`. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, expr] of template.matchAll(/\{([^}]+)\}/g)) {
    for (const raw of expr.replace(/^[+#./;?&]/, "").split(",")) {
      const name = raw.replace(/[*]$|:\d+$/, "").trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** A small RFC 6570 expansion (simple, reserved, fragment, label, path and query forms). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, expr: string) => {
    const op = /^[+#./;?&]/.test(expr) ? expr[0] : "";
    const names = templateVariables(`{${expr}}`);
    const encode = (v: string) => (op === "+" || op === "#" ? encodeURI(v) : encodeURIComponent(v));
    const defined = names.filter((n) => values[n] !== undefined && values[n] !== "");
    if (defined.length === 0) return "";
    if (op === "?" || op === "&") return op + defined.map((n) => `${n}=${encode(values[n])}`).join("&");
    if (op === ";") return defined.map((n) => `;${n}=${encode(values[n])}`).join("");
    const sep = op === "/" ? "/" : op === "." ? "." : ",";
    const prefix = op === "/" || op === "." || op === "#" ? op : "";
    return prefix + defined.map((n) => encode(values[n])).join(sep);
  });
}
