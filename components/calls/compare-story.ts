import type { CallDto } from "@/lib/domains/calls";

type Comparable = Pick<CallDto, "id" | "serverId" | "serverName" | "method" | "name" | "params" | "startedAt">;

/** The pair in time order: the earlier call is A (left), so a diff reads from before to after. */
export function inTimeOrder<T extends Pick<CallDto, "startedAt">>(x: T, y: T): [T, T] {
  return Date.parse(y.startedAt) < Date.parse(x.startedAt) ? [y, x] : [x, y];
}

const argumentsOf = (call: Comparable): Record<string, unknown> => {
  const params = call.params as { arguments?: unknown } | null;
  const args = params && typeof params === "object" ? params.arguments : undefined;
  return args && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const show = (value: unknown) => {
  const text = value === undefined ? "(none)" : JSON.stringify(value);
  return text.length > 24 ? `${text.slice(0, 23)}…` : text;
};

/** One line saying what differs between the two requests (not their outcomes): the compare page's headline. */
export function compareHeadline(a: Comparable, b: Comparable): string {
  if (a.serverId !== b.serverId) return `Different servers: ${a.serverName ?? "(deleted server)"} and ${b.serverName ?? "(deleted server)"}.`;
  if (a.method !== b.method || a.name !== b.name) return `Different requests: ${a.name} and ${b.name}.`;
  if (same(a.params, b.params)) return "The same request, run twice.";
  const [x, y] = [argumentsOf(a), argumentsOf(b)];
  const changed = [...new Set([...Object.keys(x), ...Object.keys(y)])].filter((key) => !same(x[key], y[key]));
  if (changed.length === 0) return `The same ${a.name}, with different request details.`;
  const listed = changed.slice(0, 3).map((key) => `${key}: ${show(x[key])} → ${show(y[key])}`);
  const more = changed.length > 3 ? ` and ${changed.length - 3} more` : "";
  return `The same ${a.name}, different arguments — ${listed.join(", ")}${more}.`;
}
