/**
 * Guards for rendering what an MCP server sent. Everything a server returns is untrusted:
 * links only for http(s), images and audio only as data: URLs of a few media types.
 */

import { sniffImageType } from "@/lib/core/icons";

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const RASTER_DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}$/i;

/** A data: URL of a PNG, JPEG, GIF or WebP image (the only images Markdown may show). */
export function isRasterDataUrl(value: string): boolean {
  return RASTER_DATA_URL.test(value);
}

/** Is `data` base64 at all (whitespace allowed, length a multiple of 4 once compacted)? */
export function isBase64(data: unknown): data is string {
  const b64 = cleanBase64(data);
  return b64 !== null && b64.length % 4 === 0;
}

/**
 * What the first bytes of base64 data look like: a raster type, or null (SVG, HTML, unknown).
 * Only a few bytes are decoded, so this is cheap for a 5 MB image.
 */
export function sniffBase64Image(data: string): string | null {
  try {
    const head = atob(data.replace(/\s+/g, "").slice(0, 24));
    const bytes = new Uint8Array(head.length);
    for (let i = 0; i < head.length; i++) bytes[i] = head.charCodeAt(i);
    return sniffImageType(bytes);
  } catch {
    return null;
  }
}

/** Saves text as a download (as application/octet-stream unless a safe text type is given). */
export function downloadText(text: string, filename: string, type = "application/octet-stream"): void {
  saveBlob(new Blob([text], { type }), filename);
}

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.rel = "noopener";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

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
  saveBlob(new Blob([bytes], { type: "application/octet-stream" }), filename);
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

/** How to show image data: a data: URL typed by its bytes, and a notice when something is off. */
export function imageSource(data: unknown, mimeType: unknown): { src: string | null; notice?: string } {
  const declared = typeof mimeType === "string" ? mimeType.toLowerCase().trim() : "";
  if (!isBase64(data)) return { src: null, notice: "The image data is not valid base64, so it is not shown." };
  const sniffed = sniffBase64Image(data);
  if (!sniffed) {
    const why = declared.includes("svg") ? "SVG images are never displayed (they can carry script)" : "only PNG, JPEG, GIF or WebP images are displayed";
    return { src: null, notice: `Image not shown: ${why}. Declared type: ${JSON.stringify(declared || "none")}.` };
  }
  const src = `data:${sniffed};base64,${data.replace(/\s+/g, "")}`;
  if (declared !== sniffed) return { src, notice: `Declared as ${JSON.stringify(declared || "none")}, but the bytes are ${sniffed}; shown as ${sniffed}.` };
  return { src };
}
