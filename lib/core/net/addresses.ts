/**
 * Address classes: what kind of address an IP literal is, judging an IPv6 address that carries
 * an IPv4 address by the IPv4 address inside. Isomorphic; lib/core/net/index.ts re-exports it.
 */
import ipaddr from "ipaddr.js";

const ADDRESS_CLASSES = [
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

export type Addr = ipaddr.IPv4 | ipaddr.IPv6;

/** Instance metadata services (AWS, GCP, Azure, Oracle; AWS ECS; Alibaba; AWS over IPv6). */
export const METADATA_ADDRESSES = ["169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"];
const METADATA = METADATA_ADDRESSES.map((a) => ipaddr.parse(a).toNormalizedString());

/** Parses an IP literal (brackets and an IPv6 zone allowed); null for anything else. */
export function parseIp(text: string): Addr | null {
  const bare = text.trim().replace(/^\[(.*)\]$/, "$1");
  return ipaddr.isValid(bare) ? ipaddr.parse(bare) : null;
}

/**
 * What kind of address this is. An IPv6 address that carries an IPv4 address (see embeddedV4)
 * is judged by the IPv4 address inside; a tunnel to a public address counts as reserved.
 */
export function classifyAddress(address: string | Addr): AddressClass {
  const addr = typeof address === "string" ? parseIp(address) : address;
  if (!addr) return "reserved";
  if (METADATA.includes(addr.toNormalizedString())) return "metadata";
  if (addr.kind() === "ipv4") return classifyV4(addr as ipaddr.IPv4);
  const v6 = addr as ipaddr.IPv6;
  const range: string = v6.range();
  if (range === "unspecified" || range === "loopback") return range;
  const embedded = embeddedV4(v6);
  if (embedded) {
    const inner = embedded.candidates.map(classifyV4);
    // Of several candidates (local-use NAT64), an internal one outweighs 0.0.0.0/8 padding.
    const judged = inner.find((c) => c !== "public" && c !== "unspecified") ?? inner.find((c) => c !== "public") ?? "public";
    if (embedded.form === "isatap") {
      // An ISATAP interface id is an ordinary address of its prefix unless the IPv4 inside is internal.
      if (judged !== "public") return judged;
    } else return embedded.form === "tunnel" && judged === "public" ? "reserved" : judged;
  }
  switch (range) {
    case "unicast":
      return "public";
    case "multicast":
      return range;
    case "linkLocal":
      return "link-local";
    case "uniqueLocal":
      return "unique-local";
    case "deprecatedSiteLocal":
      return "private";
    default:
      return "reserved";
  }
}

const V6 = (cidr: string) => ipaddr.parseCIDR(cidr) as [ipaddr.IPv6, number];
/** IPv6 prefixes whose addresses carry an IPv4 address at a fixed place. */
const IPV4_CARRIERS: { prefix: [ipaddr.IPv6, number]; form: "translated" | "tunnel"; at: number[]; xor?: number }[] = [
  { prefix: V6("::ffff:0:0/96"), form: "translated", at: [12, 13, 14, 15] }, // IPv4-mapped
  { prefix: V6("::ffff:0:0:0/96"), form: "translated", at: [12, 13, 14, 15] }, // IPv4-translated (RFC 6145)
  { prefix: V6("::/96"), form: "tunnel", at: [12, 13, 14, 15] }, // IPv4-compatible (deprecated)
  { prefix: V6("64:ff9b::/96"), form: "translated", at: [12, 13, 14, 15] }, // NAT64 well-known prefix (RFC 6052)
  { prefix: V6("2002::/16"), form: "translated", at: [2, 3, 4, 5] }, // 6to4 (RFC 3056)
  { prefix: V6("2001::/32"), form: "tunnel", at: [12, 13, 14, 15], xor: 0xff }, // Teredo client, obfuscated (RFC 4380)
];
const NAT64_LOCAL = V6("64:ff9b:1::/48");
/** Where RFC 6052 puts the IPv4 address for a NAT64 prefix of /96, /64, /56 and /48 (byte 8 is always zero). */
const NAT64_PLACES = [[12, 13, 14, 15], [9, 10, 11, 12], [7, 9, 10, 11], [6, 7, 9, 10]];

/**
 * The IPv4 address an IPv6 address carries, with its form: mapped and translated ones (also
 * NAT64 and 6to4) reach it, tunnels (IPv4-compatible, Teredo) wrap it, and an ISATAP interface
 * id (`::5efe:a.b.c.d` after any /64, RFC 5214) names it. The local-use NAT64 prefix
 * 64:ff9b:1::/48 (RFC 8215) may be subnetted to any length: every place is a candidate.
 */
function embeddedV4(v6: ipaddr.IPv6): { form: "translated" | "tunnel" | "isatap"; candidates: ipaddr.IPv4[] } | null {
  const bytes = v6.toByteArray();
  const at = (places: number[], xor = 0) => new ipaddr.IPv4(places.map((i) => bytes[i]! ^ xor));
  if (v6.match(NAT64_LOCAL)) return { form: "translated", candidates: NAT64_PLACES.map((places) => at(places)) };
  const carrier = IPV4_CARRIERS.find((c) => v6.match(c.prefix));
  if (carrier) return { form: carrier.form, candidates: [at(carrier.at, carrier.xor)] };
  if ((bytes[8]! & 0xfc) === 0 && bytes[9] === 0 && bytes[10] === 0x5e && bytes[11] === 0xfe) return { form: "isatap", candidates: [at([12, 13, 14, 15])] };
  return null;
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
