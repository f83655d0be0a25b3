// @ts-expect-error The parser ships no types; what it answers is described below.
import parsePrometheusTextFormat from "parse-prometheus-text-format";

/** One sample as the parser answers it (prom2json's shape): a value, or a histogram's buckets, count and sum. */
export interface Sample {
  labels?: Record<string, string>;
  value?: string;
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
}

export interface Family {
  name: string;
  help: string;
  type: string;
  metrics: Sample[];
}

// Its last line is dropped unless the text ends with a newline (as Prometheus's own text does).
const parse = (text: string) => (parsePrometheusTextFormat as (text: string) => Family[])(text.endsWith("\n") ? text : `${text}\n`);

/**
 * Parses Prometheus text (throws on text that is not valid exposition) into families by name. The
 * parser merges a labelled histogram's series into one sample (it loses their labels), so each
 * histogram's `_bucket`, `_sum` and `_count` lines are parsed as families of their own and put
 * back together here, one sample per label set.
 */
export function parseMetrics(text: string): Map<string, Family> {
  const lines = text.split("\n");
  const histograms = new Set(lines.flatMap((l) => /^# TYPE (\S+) histogram$/.exec(l)?.[1] ?? []));
  const plain: string[] = [];
  const parts = new Map<string, string[]>();
  for (const line of lines) {
    const histogram = [...histograms].find((h) => line.startsWith(`${h}_`) || line.startsWith(`# HELP ${h} `) || line.startsWith(`# TYPE ${h} `));
    if (!histogram) plain.push(line);
    else if (!line.startsWith("#")) {
      const name = /^[^{ ]+/.exec(line)![0];
      parts.set(name, [...(parts.get(name) ?? [`# TYPE ${name} gauge`]), line]);
    }
  }
  const families = new Map(parse(plain.join("\n")).map((f) => [f.name, f]));
  for (const name of histograms) {
    const bySet = new Map<string, Sample>();
    const sampleOf = (labels: Record<string, string> = {}) => {
      const key = JSON.stringify(Object.entries(labels).sort());
      if (!bySet.has(key)) bySet.set(key, { labels, buckets: {} });
      return bySet.get(key)!;
    };
    for (const suffix of ["bucket", "sum", "count"] as const) {
      for (const s of parse(parts.get(`${name}_${suffix}`)?.join("\n") ?? "")[0]?.metrics ?? []) {
        const { le, ...labels } = s.labels ?? {};
        if (suffix === "bucket") sampleOf(labels).buckets![le!] = s.value!;
        else sampleOf(labels)[suffix] = s.value!;
      }
    }
    families.set(name, { name, help: "", type: "HISTOGRAM", metrics: [...bySet.values()] });
  }
  return families;
}
