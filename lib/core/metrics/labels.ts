/** Past this many distinct label sets a metric records new ones under "other". */
export const MAX_LABEL_SETS = 2000;
/** A label value longer than this (a tool's name comes from its server) is cut. */
export const MAX_LABEL_LENGTH = 128;
export const OTHER = "other";

/**
 * Bounds one metric's label sets: a server may name thousands of tools (or a new one per call),
 * and each distinct set is a series held in memory until the process ends. The first `limit` sets
 * are kept as they are; a later one has its `external` labels (values that come from outside)
 * replaced by "other", so the count stays right and only the detail is lost. O(1) per call.
 */
export class LabelCap<L extends string> {
  private readonly seen = new Set<string>();

  constructor(
    private readonly external: readonly L[],
    private readonly limit = MAX_LABEL_SETS,
  ) {}

  admit(labels: Record<L, string>): Record<L, string> {
    for (const name of this.external) {
      const value = labels[name];
      if (value.length > MAX_LABEL_LENGTH) labels[name] = value.slice(0, MAX_LABEL_LENGTH);
    }
    const key = Object.values(labels).join("\u0000");
    if (this.seen.has(key)) return labels;
    if (this.seen.size < this.limit) {
      this.seen.add(key);
      return labels;
    }
    const capped = { ...labels };
    for (const name of this.external) capped[name] = OTHER;
    return capped;
  }

  get size(): number {
    return this.seen.size;
  }
}
