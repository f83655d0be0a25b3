import "server-only";
import { config } from "@/lib/core/config";
import { SwitchboardError } from "@/lib/core/errors";
import { createOutboundFetch, pickAddress, type OutboundFetch } from "./dispatcher";
import { parseAllowEntry, parseAllowList, workspaceEntryRefusal, type AllowEntry, type NetworkMode, type NetworkPolicy } from "./index";
import * as q from "./queries";
import { piece } from "@/lib/core/runtime";

export type { OutboundFetch } from "./dispatcher";

const POLICY_TTL_MS = 5000;
const LOOPBACK_BIND = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * `SWITCHBOARD_NETWORK_POLICY` (`public` or `private`; another value stops the start, lib/core/config), else
 * derived from where the console listens: `private` when `HOST` is loopback (the default), else `public`.
 */
export function networkMode(): NetworkMode {
  const { networkPolicy, host } = config();
  return networkPolicy ?? (LOOPBACK_BIND.test(host) ? "private" : "public");
}

const warning = () => piece("allowedNetworksWarned", () => ({ given: false }));

/**
 * `SWITCHBOARD_ALLOWED_NETWORKS`: comma-separated CIDRs and host names, what workspaces may choose
 * from (and what anonymousFetch reaches); entries that do not parse are ignored, with a warning.
 */
export function envAllowedNetworks(): string[] {
  const entries = config().allowedNetworks;
  const bad = entries.filter((e) => !parseAllowEntry(e));
  if (bad.length && !warning().given) {
    warning().given = true;
    console.warn(`SWITCHBOARD_ALLOWED_NETWORKS: ignoring ${bad.join(", ")} (not a CIDR, an address, a host name or *.domain)`);
  }
  return entries.filter((e) => !bad.includes(e));
}

// In the process runtime: Next gives each route its own module instances, and a settings change
// made in one route must reach connections opened by another at once.
const cache = () => piece("allowedNetworks", () => new Map<string, { at: number; allowed: Promise<string[]> }>());

function workspaceAllowed(workspaceId: string): Promise<string[]> {
  const hit = cache().get(workspaceId);
  if (hit && Date.now() - hit.at < POLICY_TTL_MS) return hit.allowed;
  const allowed = q.findAllowedNetworks({ workspaceId });
  cache().set(workspaceId, { at: Date.now(), allowed });
  allowed.catch(() => cache().delete(workspaceId));
  return allowed;
}

/** Drops the cached allow-list after an admin changed it, so the next connection uses the new one. */
export function forgetNetworkPolicy(workspaceId: string): void {
  cache().delete(workspaceId);
}

/**
 * A workspace's own entries that lie within the operator's list. The others (stored before that
 * was required, or since dropped by the operator) grant nothing.
 */
export function workspaceChoices(entries: readonly string[]): AllowEntry[] {
  const operator = parseAllowList(envAllowedNetworks());
  return parseAllowList(entries).filter((entry) => workspaceEntryRefusal(entry, operator) === null);
}

/** Refuses (400) a workspace allow-list with an entry outside the operator's list, naming each. */
export function assertWorkspaceAllowList(entries: readonly string[]): void {
  const operator = parseAllowList(envAllowedNetworks());
  const refused = parseAllowList(entries).flatMap((entry) => {
    const why = workspaceEntryRefusal(entry, operator);
    return why ? [{ entry: entry.text, why }] : [];
  });
  if (refused.length) throw new SwitchboardError("bad_request", refused.map((r) => r.why).join("; "), { refused: refused.map((r) => r.entry) });
}

/**
 * The policy for a workspace: the console's mode (or `public` when `strict`) and the workspace's
 * own choices within the operator's list. The operator's list alone grants a workspace nothing.
 */
async function workspacePolicy(workspaceId: string, opts: { strict?: boolean } = {}): Promise<NetworkPolicy> {
  return { mode: opts.strict ? "public" : networkMode(), allowed: [], chosen: workspaceChoices(await workspaceAllowed(workspaceId)) };
}

/**
 * The fetch for every URL a member or a server supplied, on behalf of a workspace. `strict`
 * applies the `public` policy even on a loopback console (icons: nobody asked for those hosts).
 */
export function outboundFetch({ workspaceId, strict = false }: { workspaceId: string; strict?: boolean }): OutboundFetch {
  return createOutboundFetch(() => workspacePolicy(workspaceId, { strict }));
}

/**
 * The fetch for URLs nobody in a workspace supplied (an OAuth client's metadata document named by
 * whoever asks): the `public` policy and the environment's allow-list only.
 */
export function anonymousFetch(): OutboundFetch {
  return createOutboundFetch(async () => ({ mode: "public", allowed: parseAllowList(envAllowedNetworks()) }));
}

/** The fetch under a fixed policy (tests, and work that belongs to no workspace). */
export function policyFetch(policy: NetworkPolicy): OutboundFetch {
  return createOutboundFetch(async () => policy);
}

/**
 * Refuses a server URL whose host the policy refuses today (403 naming the rule). A host that
 * does not resolve yet passes: connections are checked again, address by address, when made.
 */
export async function assertUrlAllowed({ url, workspaceId }: { url: string; workspaceId: string }): Promise<void> {
  const policy = await workspacePolicy(workspaceId);
  const picked = await pickAddress(new URL(url).hostname, policy).catch(() => null);
  if (picked && "refusal" in picked) throw new SwitchboardError("forbidden", picked.refusal.message, { rule: picked.refusal.rule });
}
