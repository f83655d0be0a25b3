import "server-only";
import { Resolver } from "node:dns/promises";
import { config } from "@/lib/core/config";

/**
 * The TXT records at `name`, from the system's resolvers or those in SWITCHBOARD_DNS_SERVERS
 * (comma-separated `host[:port]`, e.g. a company resolver, or a test's server on loopback).
 * An answer of "no such name" is no records; a resolver that cannot be reached throws.
 */
export async function resolveTxt(name: string): Promise<string[]> {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  const servers = config().dnsServers;
  if (servers.length) resolver.setServers(servers);
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""));
  } catch (err) {
    if ((err as { code?: string }).code === "ENOTFOUND" || (err as { code?: string }).code === "ENODATA") return [];
    throw err;
  }
}
