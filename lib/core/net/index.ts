/**
 * The outbound address policy: which addresses the console may connect to when it fetches a URL
 * a member or a server supplied (MCP endpoints, OAuth metadata, icons). Isomorphic: classifying
 * and matching only; lib/core/net/server.ts resolves names and pins connections to checked addresses.
 */
import type ipaddr from "ipaddr.js";
import { classifyAddress, METADATA_ADDRESSES, parseIp, type AddressClass, type Addr } from "./addresses";

export { classifyAddress, parseIp, type AddressClass } from "./addresses";

/**
 * `private`: the console is bound to loopback (a person's own machine) and may reach loopback and
 * private ranges. `public`: it serves a network, and reaches only public addresses.
 */
export type NetworkMode = "public" | "private";

/** Reachable in `private` mode; never in `public` mode unless allow-listed. */
const INTERNAL: ReadonlySet<AddressClass> = new Set(["loopback", "private", "link-local", "unique-local", "cgnat"]);

const LABELS: Record<AddressClass, string> = {
  public: "a public address",
  loopback: "a loopback address",
  private: "a private address",
  "link-local": "a link-local address",
  "unique-local": "a unique-local (private IPv6) address",
  cgnat: "a carrier-grade NAT address",
  metadata: "a cloud metadata address",
  multicast: "a multicast address",
  unspecified: "an unspecified address",
  reserved: "a reserved address",
};

export type AllowEntry = { kind: "cidr"; range: [Addr, number]; text: string } | { kind: "host"; host: string; text: string };

const HOST_NAME = /^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.?$/;

/** One allow-list entry, or null when it is none of the accepted forms. */
export function parseAllowEntry(text: string): AllowEntry | null {
  const entry = text.trim().toLowerCase();
  if (entry.includes("/")) {
    const [ip, bits] = entry.split("/");
    const addr = parseIp(ip ?? "");
    if (!addr || !/^\d{1,3}$/.test(bits ?? "")) return null;
    const max = addr.kind() === "ipv4" ? 32 : 128;
    if (Number(bits) > max) return null;
    return { kind: "cidr", range: [unmap(addr), addr.kind() === "ipv6" && unmap(addr).kind() === "ipv4" ? Math.max(0, Number(bits) - 96) : Number(bits)], text: entry };
  }
  const addr = parseIp(entry);
  if (addr) return { kind: "cidr", range: [unmap(addr), unmap(addr).kind() === "ipv4" ? 32 : 128], text: entry };
  if (!HOST_NAME.test(entry)) return null;
  return { kind: "host", host: entry.replace(/\.$/, ""), text: entry };
}

/** Entries that parse; the others are dropped (the settings API refuses them up front). */
export function parseAllowList(entries: readonly string[]): AllowEntry[] {
  return entries.map(parseAllowEntry).filter((e): e is AllowEntry => e !== null);
}

/** Whether everything `inner` allows, `outer` allows too: a range inside a range, a name equal to one or under its `*.domain`. */
export function entryWithin(inner: AllowEntry, outer: AllowEntry): boolean {
  if (inner.kind === "cidr" && outer.kind === "cidr") {
    return inner.range[0].kind() === outer.range[0].kind() && inner.range[1] >= outer.range[1] && inner.range[0].match(outer.range as [never, number]);
  }
  if (inner.kind === "host" && outer.kind === "host") {
    return inner.host === outer.host || (outer.host.startsWith("*.") && inner.host.endsWith(outer.host.slice(1)));
  }
  return false;
}

/** Classes a workspace's list never allows, whatever the operator's list says. */
const NEVER_CHOSEN: ReadonlySet<AddressClass> = new Set(["metadata", "link-local"]);
const NEVER_RANGES = ["169.254.0.0/16", "fe80::/10", ...METADATA_ADDRESSES].map((e) => parseAllowEntry(e)!);

/**
 * Why a workspace may not list `entry`, or null when it may: it must lie within an entry of the
 * operator's list (SWITCHBOARD_ALLOWED_NETWORKS). Wider ranges may include metadata and
 * link-local addresses; checkAddress still refuses those to a workspace's entries.
 */
export function workspaceEntryRefusal(entry: AllowEntry, operator: readonly AllowEntry[]): string | null {
  if (NEVER_RANGES.some((r) => entryWithin(entry, r))) return `"${entry.text}" is a link-local or cloud metadata address, which a workspace can never allow`;
  if (operator.some((o) => entryWithin(entry, o))) return null;
  const now = operator.length ? `it allows ${operator.map((o) => o.text).join(", ")}` : "it allows nothing now";
  return `"${entry.text}" is outside what this console's operator allows (${now}): the operator must allow it via SWITCHBOARD_ALLOWED_NETWORKS first`;
}

function unmap(addr: Addr): Addr {
  return addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
}

export interface NetworkPolicy {
  mode: NetworkMode;
  /** The operator's entries: they override the mode for any address. */
  allowed: AllowEntry[];
  /** A workspace's entries: they override the mode, never for a metadata or link-local address. */
  chosen?: AllowEntry[];
}

/** Why an address was refused: the rule that refused it, in words a person can act on. */
export interface Refusal {
  rule: AddressClass;
  message: string;
}

/**
 * Whether `host` may be reached at `address` under `policy`: null when it may, else the rule.
 * Public addresses always may; internal ranges only in `private` mode; metadata, multicast,
 * unspecified and reserved addresses never. An allow-listed CIDR or host name overrides all
 * (a workspace's own entry all but metadata and link-local).
 */
export function checkAddress(host: string, address: string, policy: NetworkPolicy): Refusal | null {
  const addr = parseIp(address);
  const rule = addr ? classifyAddress(addr) : "reserved";
  if (rule === "public" || (policy.mode === "private" && INTERNAL.has(rule))) return null;
  if (addr && isAllowListed(host, addr, policy.allowed)) return null;
  if (addr && !NEVER_CHOSEN.has(rule) && isAllowListed(host, addr, policy.chosen ?? [])) return null;
  return { rule, message: refusalMessage(host, address, rule) };
}

function isAllowListed(host: string, addr: Addr, allowed: AllowEntry[]): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  const plain = unmap(addr);
  return allowed.some((entry) => {
    if (entry.kind === "host") return entry.host.startsWith("*.") ? name.endsWith(entry.host.slice(1)) : name === entry.host;
    return entry.range[0].kind() === plain.kind() && plain.match(entry.range as [never, number]);
  });
}

function refusalMessage(host: string, address: string, rule: AddressClass): string {
  const bare = host.replace(/^\[|\]$/g, "");
  const what = parseIp(bare) ? `${address} is ${LABELS[rule]}` : `${bare} resolves to ${LABELS[rule]}`;
  const why = INTERNAL.has(rule)
    ? "refused because this console serves a network (network policy \"public\")"
    : "always refused";
  const how = NEVER_CHOSEN.has(rule)
    ? "No workspace can allow it."
    : "An admin can allow it under Settings → Workspace → Allowed networks, within what the operator allows with SWITCHBOARD_ALLOWED_NETWORKS.";
  return `Blocked by the outbound network policy: ${what}, ${why}. ${how}`;
}

/** Thrown (as the cause of a failed fetch) when every address of a host is refused. */
export class AddressRefusedError extends Error {
  readonly code = "SB_ADDRESS_REFUSED";
  constructor(
    readonly host: string,
    readonly rule: AddressClass,
    message: string,
  ) {
    super(message);
    this.name = "AddressRefusedError";
  }
}

/** Whether `err` (or anything in its cause chain) is an address refusal. */
export function findAddressRefusal(err: unknown): AddressRefusedError | null {
  let current: unknown = err;
  for (let i = 0; i < 8 && current; i++) {
    if (current instanceof AddressRefusedError || (current as { code?: unknown }).code === "SB_ADDRESS_REFUSED") return current as AddressRefusedError;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
