import { SwitchboardError } from "@/lib/core/errors";
import type { ApiRequest } from "./reply";

// Past the cap a body is read on and discarded up to this size, so a client still sending gets
// its 413 instead of a reset connection; beyond it the connection is cut.
const DRAIN_BYTES = 32 * 1024 * 1024;

/**
 * A request's body as text, never holding more than `maxBytes` of it: over the cap (declared or
 * counted) it is a 413.
 */
export async function readBodyText(request: ApiRequest, maxBytes: number): Promise<string> {
  const tooLarge = () => new SwitchboardError("payload_too_large", `Request body is larger than ${maxBytes} bytes`, { maxBytes });
  if (request.bufferedBody !== undefined) {
    const body = request.bufferedBody;
    if (body && body.byteLength > maxBytes) throw tooLarge();
    return body ? new TextDecoder().decode(body) : "";
  }
  if (!request.body) return "";
  const declared = Number(request.headers.get("content-length"));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = Number.isFinite(declared) && declared > maxBytes;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) over = true;
    if (over && size > DRAIN_BYTES) {
      await reader.cancel().catch(() => undefined);
      break;
    }
    if (!over) chunks.push(value);
  }
  if (over) throw tooLarge();
  return new TextDecoder().decode(Buffer.concat(chunks));
}

