import "server-only";
import { SwitchboardError } from "@/lib/core/errors";
import { findAddressRefusal } from "@/lib/core/net";
import type { OutboundFetch } from "@/lib/core/net/server";
import { decodeDataUrl, ICON_MAX_BYTES, refuseIconSrc, sniffImageType, type IconType } from "./index";

const FETCH_TIMEOUT_MS = 5000;

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
 * redirects, 5 s, 100 KB) or a data URL; only raster images recognised by their bytes pass. SVG is
 * refused: it can carry script and we have no rasteriser. `fetchIcon` carries the address policy
 * (the route gives the strict one: nobody chose these hosts).
 */
export async function loadIcon(src: string, fetchIcon: OutboundFetch): Promise<{ bytes: Uint8Array; type: IconType }> {
  const refusal = refuseIconSrc(src);
  if (refusal) throw new SwitchboardError("bad_request", `Icon refused: ${refusal}`);
  let bytes: Uint8Array | null;
  if (src.toLowerCase().startsWith("data:")) {
    bytes = decodeDataUrl(src);
    if (!bytes) throw new SwitchboardError("bad_request", "Icon refused: not base64 image data");
    if (bytes.length > ICON_MAX_BYTES) throw new SwitchboardError("payload_too_large", `Icon larger than ${ICON_MAX_BYTES} bytes`);
  } else {
    let response: Response;
    try {
      response = await fetchIcon(src, { redirect: "manual", credentials: "omit", headers: { accept: "image/png,image/jpeg,image/gif,image/webp" }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    } catch (err) {
      const refused = findAddressRefusal(err);
      if (refused) throw new SwitchboardError("forbidden", `Icon refused: ${refused.message}`, { rule: refused.rule });
      const cause = (err as Error).cause as { code?: string } | undefined;
      throw new SwitchboardError("upstream_error", `Icon could not be fetched${cause?.code ? ` (${cause.code})` : ""}`);
    }
    if (response.status !== 200) throw new SwitchboardError("upstream_error", `Icon fetch answered ${response.status}`);
    bytes = await readCapped(response);
  }
  const type = sniffImageType(bytes);
  if (!type) throw new SwitchboardError("unprocessable", "Icon refused: only PNG, JPEG, GIF or WebP images are shown");
  return { bytes, type };
}
