/** At most this many groups of a member are kept, each at most GROUP_CHARS long (longer names are dropped). */
export const MAX_GROUPS = 200;
export const GROUP_CHARS = 500;

/**
 * A member's IdP groups from an ID token's claims: the claim `claimName` as an array of strings or
 * a single string (some IdPs send one group unwrapped); anything else in it is ignored.
 */
export function groupsFromClaims(claims: Record<string, unknown>, claimName: string): string[] {
  const value = Object.hasOwn(claims, claimName) ? claims[claimName] : undefined;
  const listed: unknown[] = Array.isArray(value) ? value : [value];
  const groups = new Set<string>();
  for (const g of listed) {
    if (groups.size >= MAX_GROUPS) break;
    if (typeof g === "string" && g.length > 0 && g.length <= GROUP_CHARS) groups.add(g);
  }
  return [...groups];
}
