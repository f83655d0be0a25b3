import "server-only";
import { config } from "@/lib/core/config";
import type { RequestHead } from "@/lib/core/access";
import { classifyAddress, parseIp } from "@/lib/core/net";
import { clientAddress, FORWARDED_HEADER, requestHost } from "@/lib/identity/auth/server";
import { SwitchboardError } from "@/lib/core/errors";
import { setupCodeMatches } from "./setup-code";

/** Where a set-up request came from, as far as this console can judge it. */
export interface SetupRequester {
  /** The client's address: the socket's, or the last `X-Forwarded-For` entry with `SWITCHBOARD_TRUST_PROXY=1`. */
  address: string;
  /** The host (and port) the request addressed. */
  host: string;
  /** A proxy forwarded the request and the console cannot judge its client (see forwardedBlindly). */
  proxied: boolean;
}

/**
 * Any forwarding header means a proxy in front: its socket is loopback whoever the client is. With
 * `SWITCHBOARD_TRUST_PROXY=1` the last `X-Forwarded-For` entry names the client (clientAddress), so
 * only a forwarded request without one stays unjudgeable. Which ones arrived is the request front's record
 * (Next adds X-Forwarded-* of its own to every request).
 */
function forwardedBlindly(headers: Headers): boolean {
  const sent = (headers.get(FORWARDED_HEADER) ?? "").split(",").filter(Boolean);
  if (config().trustProxy && sent.includes("x-forwarded-for")) return false;
  return sent.length > 0;
}

/** The set-up requester of a request. */
export function setupRequester(request: RequestHead): SetupRequester {
  return { address: clientAddress(request), host: requestHost(request), proxied: forwardedBlindly(request.headers) };
}

const isLoopback = (address: string) => {
  const ip = parseIp(address);
  return ip !== null && classifyAddress(ip) === "loopback";
};

function isLoopbackHost(host: string): boolean {
  if (!URL.canParse(`http://${host}`)) return false;
  const name = new URL(`http://${host}`).hostname;
  return name === "localhost" || isLoopback(name);
}

/**
 * Whether set-up needs the code from the console's log: always, unless the client is on this
 * machine's loopback, names a loopback host (a page whose name was re-pointed at 127.0.0.1, DNS
 * rebinding, still names its own host) and came through no proxy the console cannot see past.
 */
export function setupCodeRequired({ address, host, proxied }: SetupRequester): boolean {
  return proxied || !isLoopback(address) || !isLoopbackHost(host);
}

/** Refuses set-up addressed to another host than SWITCHBOARD_URL's, or needing a code it lacks. */
export function assertSetupAllowed(requester: SetupRequester, code: string | undefined): void {
  const url = config().url;
  const configured = url ? new URL(url).host : null;
  if (configured && requester.host !== configured) {
    throw new SwitchboardError("forbidden", `Set-up refused: this console is ${configured} (SWITCHBOARD_URL), not ${requester.host}`);
  }
  if (setupCodeRequired(requester) && !setupCodeMatches(code)) {
    throw new SwitchboardError("forbidden", code ? "Set-up refused: the set-up code is wrong" : "Set-up from another machine needs the set-up code printed in the console's log");
  }
}
