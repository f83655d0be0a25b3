import type { Role } from "@/lib/core/access";

/**
 * Every pipeline that answers API requests, as console settings: the console's own
 * (lib/api/pipeline.ts, every /api/v1 and /mcp request in production, cookie or token) and
 * Next's (development, SWITCHBOARD_DIRECT_API=0). The role-matrix tests (roles.test.ts,
 * route-identity.test.ts) run through each; a new entry point joins this list.
 */
export const PIPELINES: [label: string, env: Record<string, string>][] = [
  ["the console's pipeline", {}],
  ["Next's pipeline", { SWITCHBOARD_DIRECT_API: "0" }],
];

/** Routes whose effect on the caller would change the rest of a run: they go last. */
export const LAST = ["DELETE /api/v1/workspace", "POST /api/v1/members/leave"];

export interface Caller {
  label: string;
  role: Role;
  token: string;
}
