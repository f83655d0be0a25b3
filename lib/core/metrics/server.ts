import "server-only";
import crypto from "node:crypto";
import net from "node:net";
import { config } from "@/lib/core/config";
import { SwitchboardError } from "@/lib/core/errors";
import { exposition } from "./index";

// Set by the request front (lib/start/front.ts, lib/api/request-target.ts) from the socket and from
// what the client sent; a client's own value of either is overwritten there.
const CLIENT_IP_HEADER = "x-switchboard-client-ip";
const FORWARDED_HEADER = "x-switchboard-forwarded";
/** A longer Authorization header is not a token of ours: refused before it is hashed. */
const MAX_AUTHORIZATION = 4096;

export interface MetricsAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const digest = (text: string) => crypto.createHash("sha256").update(text).digest();

/** Whether `given` is the configured token, in time that does not depend on where they differ. */
function tokenMatches(given: string, token: string): boolean {
  return crypto.timingSafeEqual(digest(given), digest(token));
}

function isLoopback(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/^::ffff:(?=\d+\.)/i, "");
  if (net.isIPv4(bare)) return bare.startsWith("127.");
  return net.isIPv6(bare) && /^(0{0,4}:){7}0{0,3}1$|^::1$/.test(bare);
}

/**
 * The client's address for the loopback-only setting: the socket's, unless the request came
 * through a proxy (it carried forwarding headers). Then, with SWITCHBOARD_TRUST_PROXY, the last
 * X-Forwarded-For entry; without it nothing (a proxy on the same machine would otherwise make every
 * client look local). Never the Host header.
 */
function clientAddress(headers: Headers): string {
  const forwarded = (headers.get(FORWARDED_HEADER) ?? "").split(",").filter(Boolean);
  if (!forwarded.length) return headers.get(CLIENT_IP_HEADER) ?? "";
  if (!config().trustProxy || !forwarded.includes("x-forwarded-for")) return "";
  return headers.get("x-forwarded-for")?.split(",").map((e) => e.trim()).filter(Boolean).at(-1) ?? "";
}

function refusal(error: SwitchboardError, headers: Record<string, string> = {}): MetricsAnswer {
  return { status: error.status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers }, body: JSON.stringify(error.toBody()) };
}

/**
 * GET /metrics (docs/operations.md, "Metrics"): this instance's figures in Prometheus text, for
 * `Authorization: Bearer $SWITCHBOARD_METRICS_TOKEN`, or without a token from a loopback address
 * when SWITCHBOARD_METRICS_LOOPBACK=1. With neither set the endpoint does not exist (404).
 */
export async function metricsAnswer(headers: Headers): Promise<MetricsAnswer> {
  const { metricsToken: token, metricsLoopback: loopback } = config();
  if (!token && !loopback) return refusal(new SwitchboardError("not_found", "Not found"));
  const authorization = headers.get("authorization");
  const bearer = authorization && authorization.length <= MAX_AUTHORIZATION ? /^Bearer +(\S+) *$/i.exec(authorization)?.[1] : undefined;
  const challenge = { "www-authenticate": 'Bearer realm="switchboard-metrics"' };
  if (token && authorization) {
    if (!bearer || !tokenMatches(bearer, token)) return refusal(new SwitchboardError("unauthorized", "The metrics token is not valid"), challenge);
  } else if (!loopback || !isLoopback(clientAddress(headers))) {
    const message = token ? "Send the metrics token (Authorization: Bearer …)" : "Metrics are served only to loopback addresses here";
    return refusal(new SwitchboardError("unauthorized", message), token ? challenge : {});
  }
  const { contentType, text } = await exposition();
  return { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" }, body: text };
}
