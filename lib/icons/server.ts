import "server-only";
import dns from "node:dns/promises";
import net from "node:net";
import { SwitchboardError } from "@/lib/errors";
import { decodeDataUrl, ICON_MAX_BYTES, refuseIconSrc, sniffImageType, type IconType } from "./index";

const FETCH_TIMEOUT_MS = 5000;

function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) {
    const [a, b] = address.split(".").map(Number) as [number, number];
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
  }
  const v6 = address.toLowerCase();
  if (v6.startsWith("::ffff:")) return isPrivateAddress(v6.slice(7));
  return v6 === "::" || v6 === "::1" || v6.startsWith("fc") || v6.startsWith("fd") || v6.startsWith("fe80");
}

async function readCapped(response: Response): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > ICON_MAX_BYTES) throw new SwitchboardError("payload_too_large", `Icon larger than ${ICON_MAX_BYTES} bytes`);
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > ICON_MAX_BYTES) {
      await reader.cancel();
      throw new SwitchboardError("payload_too_large", `Icon larger than ${ICON_MAX_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/**
 * Loads a server-provided icon on the console side: https (no credentials, no cookies, no
 * redirects, no private addresses, 5 s, 100 KB) or a data URL; only raster images recognised by
 * their bytes pass. SVG is refused: it can carry script and we have no rasteriser.
 */
export async function loadIcon(src: string): Promise<{ bytes: Uint8Array; type: IconType }> {
  const refusal = refuseIconSrc(src);
  if (refusal) throw new SwitchboardError("bad_request", `Icon refused: ${refusal}`);
  let bytes: Uint8Array | null;
  if (src.toLowerCase().startsWith("data:")) {
    bytes = decodeDataUrl(src);
    if (!bytes) throw new SwitchboardError("bad_request", "Icon refused: not base64 image data");
    if (bytes.length > ICON_MAX_BYTES) throw new SwitchboardError("payload_too_large", `Icon larger than ${ICON_MAX_BYTES} bytes`);
  } else {
    const url = new URL(src);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
    if (addresses.length === 0) throw new SwitchboardError("upstream_error", "Icon host does not resolve");
    if (addresses.some(isPrivateAddress)) throw new SwitchboardError("forbidden", "Icon refused: private or loopback address");
    let response: Response;
    try {
      response = await fetch(url, { redirect: "manual", credentials: "omit", headers: { accept: "image/png,image/jpeg,image/gif,image/webp" }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    } catch (err) {
      throw new SwitchboardError("upstream_error", `Icon could not be fetched: ${(err as Error).message}`);
    }
    if (response.status !== 200) throw new SwitchboardError("upstream_error", `Icon fetch answered ${response.status}`);
    bytes = await readCapped(response);
  }
  const type = sniffImageType(bytes);
  if (!type) throw new SwitchboardError("unprocessable", "Icon refused: only PNG, JPEG, GIF or WebP images are shown");
  return { bytes, type };
}
