import { parseTemplate } from "url-template";

/** The variable names of an RFC 6570 URI template, e.g. `file:///{path}` or `x://{a}{?b,c}`, in order. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, expr] of template.matchAll(/\{([^}]+)\}/g)) {
    for (const raw of expr.replace(/^[+#./;?&]/, "").split(",")) {
      const name = raw.replace(/\*$|:\d+$/, "").trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** Variables that only appear in query expressions (`{?a}`, `{&b}`): leaving them empty is fine. */
export function optionalVariables(template: string): string[] {
  const exprs = [...template.matchAll(/\{([^}]+)\}/g)].map(([, expr]) => expr);
  const inQuery = exprs.filter((e) => /^[?&]/.test(e)).flatMap((e) => templateVariables(`{${e}}`));
  const elsewhere = exprs.filter((e) => !/^[?&]/.test(e)).flatMap((e) => templateVariables(`{${e}}`));
  return inQuery.filter((name) => !elsewhere.includes(name));
}

/**
 * Expands an RFC 6570 template (all four levels, via `url-template`). Empty fields count as
 * undefined, so their expressions drop out (`{?q}` gives "" rather than "?q="). A malformed
 * template yields null.
 */
export function expandTemplate(template: string, values: Record<string, string>): string | null {
  const defined = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
  try {
    return parseTemplate(template).expand(defined);
  } catch {
    return null;
  }
}
