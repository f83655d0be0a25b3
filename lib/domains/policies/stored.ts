import type { PolicyRule } from "./index";

/** The rules as stored (policy_set.rules, policy_version.rules): a JSON array; anything else reads as none. */
export function parseRules(text: string): PolicyRule[] {
  try {
    const rules = JSON.parse(text) as unknown;
    return Array.isArray(rules) ? (rules as PolicyRule[]) : [];
  } catch {
    return [];
  }
}
