/**
 * The outbound address policy: which addresses the console may connect to when it fetches a URL
 * a member or a server supplied (MCP endpoints, OAuth metadata, icons). Isomorphic: classifying
 * and matching only; lib/net/server.ts resolves names and pins connections to checked addresses.
 */
import ipaddr from "ipaddr.js";

export const ADDRESS_CLASSES = [
  "public",
  "loopback",
  "private",
  "link-local",
  "unique-local",
  "cgnat",
  "metadata",
  "multicast",
  "unspecified",
  "reserved",
] as const;
export type AddressClass = (typeof ADDRESS_CLASSES)[number];

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

/** Instance metadata services (AWS, GCP, Azure, Oracle; AWS ECS; Alibaba; AWS over IPv6). */
const METADATA = ["169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"].map((a) => ipaddr.parse(a).toNormalizedString());

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

/** Parses an IP literal (brackets and an IPv6 zone allowed); null for anything else. */
export function parseIp(text: string): Addr | null {
  const bare = text.trim().replace(/^\[(.*)\]$/, "$1");
  return ipaddr.isValid(bare) ? ipaddr.parse(bare) : null;
}

/**
 * What kind of address this is. IPv6 forms that carry an IPv4 address (IPv4-mapped such as
 * ::ffff:7f00:1, IPv4-translated, NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo, IPv4-compatible)
 * are judged by the IPv4 address inside; a tunnel to a public address counts as reserved.
 */
export function classifyAddress(address: string | Addr): AddressClass {
  const addr = typeof address === "string" ? parseIp(address) : address;
  if (!addr) return "reserved";
  if (METADATA.includes(addr.toNormalizedString())) return "metadata";
  if (addr.kind() === "ipv4") return classifyV4(addr as ipaddr.IPv4);
  const v6 = addr as ipaddr.IPv6;
  const range: string = v6.range();
  const p = v6.parts;
  switch (range) {
    case "ipv4Mapped":
    case "rfc6145":
    case "rfc6052":
      return classifyV4(v4(p[6]!, p[7]!));
    case "6to4":
      return classifyV4(v4(p[1]!, p[2]!));
    case "teredo":
      return tunnelled(classifyV4(v4(~p[6]! & 0xffff, ~p[7]! & 0xffff)));
    case "unicast":
      return "public";
    case "unspecified":
    case "loopback":
    case "multicast":
      return range;
    case "linkLocal":
      return "link-local";
    case "uniqueLocal":
      return "unique-local";
    case "deprecatedSiteLocal":
      return "private";
    case "reserved":
      // ::/96 other than :: and ::1: the deprecated IPv4-compatible form.
      return p.slice(0, 6).every((x) => x === 0) ? tunnelled(classifyV4(v4(p[6]!, p[7]!))) : "reserved";
    default:
      return "reserved";
  }
}

function classifyV4(addr: ipaddr.IPv4): AddressClass {
  if (METADATA.includes(addr.toNormalizedString())) return "metadata";
  switch (addr.range()) {
    case "unicast":
      return "public";
    case "loopback":
    case "private":
    case "multicast":
    case "unspecified":
      return addr.range() as AddressClass;
    case "linkLocal":
      return "link-local";
    case "carrierGradeNat":
      return "cgnat";
    default:
      return "reserved";
  }
}

function v4(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function tunnelled(inner: AddressClass): AddressClass {
  return inner === "public" ? "reserved" : inner;
}

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

function unmap(addr: Addr): Addr {
  return addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
}

export interface NetworkPolicy {
  mode: NetworkMode;
  allowed: AllowEntry[];
}

/** Why an address was refused: the rule that refused it, in words a person can act on. */
export interface Refusal {
  rule: AddressClass;
  message: string;
}

/**
 * Whether `host` may be reached at `address` under `policy`: null when it may, else the rule.
 * Public addresses always may; internal ranges only in `private` mode; metadata, multicast,
 * unspecified and reserved addresses never. An allow-listed CIDR or host name overrides all.
 */
export function checkAddress(host: string, address: string, policy: NetworkPolicy): Refusal | null {
  const addr = parseIp(address);
  const rule = addr ? classifyAddress(addr) : "reserved";
  if (rule === "public" || (policy.mode === "private" && INTERNAL.has(rule))) return null;
  if (addr && isAllowListed(host, addr, policy.allowed)) return null;
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
  return `Blocked by the outbound network policy: ${what}, ${why}. An admin can allow it under Settings → Workspace → Allowed networks, or with SWITCHBOARD_ALLOWED_NETWORKS.`;
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
