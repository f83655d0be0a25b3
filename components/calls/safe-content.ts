/**
 * Guards for rendering what an MCP server sent. Everything a server returns is untrusted:
 * links only for http(s), images and audio only as data: URLs of a few media types.
 */

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function cleanBase64(data: unknown): string | null {
  if (typeof data !== "string") return null;
  const compact = data.replace(/\s+/g, "");
  return BASE64.test(compact) ? compact : null;
}

/** A data: URL for an image, or null when the type is not png/jpeg/gif/webp or the data is not base64. */
export function imageDataUrl(data: unknown, mimeType: unknown): string | null {
  const type = typeof mimeType === "string" ? mimeType.toLowerCase().trim() : "";
  const b64 = cleanBase64(data);
  return IMAGE_TYPES.has(type) && b64 ? `data:${type};base64,${b64}` : null;
}

/** A data: URL for audio/*, or null. */
export function audioDataUrl(data: unknown, mimeType: unknown): string | null {
  const type = typeof mimeType === "string" ? mimeType.toLowerCase().trim() : "";
  const b64 = cleanBase64(data);
  return /^audio\/[a-z0-9.+-]+$/.test(type) && b64 ? `data:${type};base64,${b64}` : null;
}

/** Saves base64 data as a file; always as application/octet-stream so the browser never renders it. */
export function downloadBase64(data: string, filename: string): void {
  const b64 = cleanBase64(data);
  if (!b64) throw new Error("The blob is not valid base64");
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.rel = "noopener";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A file name from a URI's last path segment, stripped of anything odd. */
export function fileNameFromUri(uri: unknown, fallback = "resource.bin"): string {
  if (typeof uri !== "string") return fallback;
  const last = uri.split(/[/\\?#]/).filter(Boolean).pop() ?? "";
  const safe = last.replace(/[^\w.-]+/g, "_").slice(0, 100);
  return safe && safe !== "." && safe !== ".." ? safe : fallback;
}

/** Approximate decoded size of base64 data. */
export function base64Bytes(data: string): number {
  const compact = data.replace(/\s+/g, "");
  return Math.floor((compact.length * 3) / 4) - (compact.endsWith("==") ? 2 : compact.endsWith("=") ? 1 : 0);
}

export function asRecord(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
