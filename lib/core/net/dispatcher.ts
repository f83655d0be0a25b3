import dns from "node:dns/promises";
import { Agent, buildConnector, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from "undici";
import { AddressRefusedError, checkAddress, classifyAddress, parseIp, type NetworkPolicy, type Refusal } from "./index";
import { leanEligible, leanFetch } from "./lean-fetch";
import { piece } from "@/lib/core/runtime";

/** fetch under an address policy, and whether a host it reached is inside a network. */
export interface OutboundFetch {
  (url: string | URL, init?: RequestInit): Promise<Response>;
  /** True when the URL's host was reached (or would be) at a non-public address, or is unknown: its answers are not echoed. */
  isInternal(url: string | URL | undefined): boolean;
  /**
   * Whether a refusal (4xx) from this URL may be quoted although its host is internal: only a
   * server on the console's own machine (loopback) under the `private` policy (a console bound to
   * loopback), whose users can reach that server themselves. Such servers explain themselves in
   * their refusals ("Access is only allowed at localhost:8931"); any other internal answer stays
   * unquoted (docs/security.md).
   */
  quotesOwnRefusal(url: string | URL | undefined, status: number): boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_AGENTS = 16;
const MAX_HOSTS = 1000;

/** host → whether any connection to it went to a non-public address. */
const reached = () => piece("reachedHosts", () => new Map<string, boolean>());
/** One connection pool per policy; pools are keyed by origin inside, so sockets stay pinned. */
const agents = () => piece("outboundAgents", () => new Map<string, Agent>());

/**
 * Resolves `host` once (an IP literal is itself) and returns the first address the policy
 * allows, or the refusal of the first address when none is allowed.
 */
export async function pickAddress(host: string, policy: NetworkPolicy): Promise<{ address: string } | { refusal: Refusal }> {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  const addresses = parseIp(bare) ? [bare] : (await dns.lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
  let first: Refusal | null = null;
  for (const address of addresses) {
    const refusal = checkAddress(bare, address, policy);
    if (!refusal) return { address };
    first ??= refusal;
  }
  if (!first) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${bare}`), { code: "ENOTFOUND", hostname: bare });
  return { refusal: first };
}

function remember(host: string, address: string) {
  const internal = classifyAddress(address) !== "public" || reached().get(host) === true;
  reached().delete(host);
  reached().set(host, internal);
  if (reached().size > MAX_HOSTS) reached().delete(reached().keys().next().value!);
}

function isInternal(url: string | URL | undefined): boolean {
  if (!url || !URL.canParse(url)) return false;
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, "$1");
  return parseIp(host) ? classifyAddress(host) !== "public" : (reached().get(host) ?? true);
}

function isLoopback(url: string | URL | undefined): boolean {
  if (!url || !URL.canParse(url)) return false;
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || (parseIp(host) !== null && classifyAddress(host) === "loopback");
}

/**
 * An undici Agent whose connector resolves the host, checks every address against the policy
 * and connects to the checked address itself: no second resolution, so DNS rebinding cannot
 * swap it. TLS still verifies the certificate against the host name (SNI comes from `host`).
 */
function agentFor(policy: NetworkPolicy): Agent {
  const key = JSON.stringify([policy.mode, policy.allowed.map((e) => e.text).sort(), (policy.chosen ?? []).map((e) => e.text).sort()]);
  const existing = agents().get(key);
  if (existing) return existing;
  const connectSocket = buildConnector({});
  const agent = new Agent({
    connect: (options, callback) => {
      const host = options.hostname.replace(/^\[(.*)\]$/, "$1");
      pickAddress(host, policy).then(
        (picked) => {
          if ("refusal" in picked) return callback(new AddressRefusedError(host, picked.refusal.rule, picked.refusal.message), null);
          remember(host, picked.address);
          connectSocket({ ...options, hostname: picked.address }, callback);
        },
        (err: Error) => callback(err, null),
      );
    },
  });
  agents().set(key, agent);
  if (agents().size > MAX_AGENTS) {
    const [oldKey, oldAgent] = agents().entries().next().value!;
    agents().delete(oldKey);
    void oldAgent.close().catch(() => undefined);
  }
  return agent;
}

/**
 * fetch whose every connection (redirect hops included) goes through the policy's Agent. A
 * redirect the caller follows itself (`redirect: "manual"`, as the MCP SDK does) is checked
 * here too, so a refused hop fails with the rule rather than as an unexplained redirect.
 */
export function createOutboundFetch(policyFor: () => Promise<NetworkPolicy>): OutboundFetch {
  let privateMode = false;
  const outbound = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const policy = await policyFor();
    privateMode = policy.mode === "private";
    const dispatcher = agentFor(policy);
    const response = leanEligible(init)
      ? await leanFetch(url, init!, dispatcher)
      : asGlobalResponse(await undiciFetch(url, { ...(init as UndiciRequestInit), dispatcher }));
    const location = init?.redirect === "manual" && REDIRECTS.has(response.status) ? response.headers.get("location") : null;
    if (location) await checkRedirect(new URL(location, url), response, policy);
    return response;
  };
  const quotesOwnRefusal = (url: string | URL | undefined, status: number) => status >= 400 && status <= 499 && privateMode && isLoopback(url);
  return Object.assign(outbound, { isInternal, quotesOwnRefusal });
}

/**
 * undici's own Response class is not the global one, and the MCP SDK tells a Response from a
 * string with instanceof (e.g. when parsing an OAuth error body): hand back a global Response.
 */
function asGlobalResponse(res: Awaited<ReturnType<typeof undiciFetch>>): Response {
  const nullBody = res.body === null || [204, 205, 304].includes(res.status);
  const response = new Response(nullBody ? null : (res.body as unknown as ReadableStream<Uint8Array>), {
    status: res.status,
    statusText: res.statusText,
    headers: [...res.headers],
  });
  Object.defineProperty(response, "url", { value: res.url });
  return response;
}

async function checkRedirect(target: URL, response: Response, policy: NetworkPolicy) {
  if (target.protocol !== "http:" && target.protocol !== "https:") return;
  const picked = await pickAddress(target.hostname, policy).catch(() => null);
  if (!picked || !("refusal" in picked)) return;
  await response.body?.cancel().catch(() => undefined);
  throw new AddressRefusedError(target.hostname, picked.refusal.rule, `Redirect refused: ${picked.refusal.message}`);
}
