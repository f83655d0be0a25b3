/**
 * Server-provided icons (Tool, Resource, Prompt and Implementation `icons`). Only https and data
 * URLs are accepted; only PNG, JPEG, GIF and WebP pass, recognised by their bytes; SVG is
 * refused. https icons are fetched by the console (GET /api/v1/icons?src=…), never by the browser.
 */

export const ICON_MAX_BYTES = 100 * 1024;
const ICON_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export type IconType = (typeof ICON_TYPES)[number];

interface McpIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

/** The image type of `bytes` by magic number, or null (SVG, HTML, anything else). */
export function sniffImageType(bytes: Uint8Array): IconType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return "image/webp";
  return null;
}

/** Why an icon src is refused before any fetch, or null when it may be tried. */
export function refuseIconSrc(src: string): string | null {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return "not a URL";
  }
  if (url.protocol === "data:") return /^data:image\/(png|jpeg|gif|webp)[;,]/i.test(src) ? null : "only PNG, JPEG, GIF or WebP data URLs";
  if (url.protocol !== "https:") return "only https and data URLs";
  if (url.username || url.password) return "credentials in the URL";
  return null;
}

/** Decodes a `data:image/…;base64,…` URL; null when it is not base64 image data. */
export function decodeDataUrl(src: string): Uint8Array | null {
  const match = /^data:image\/[a-z0-9.+-]+(?:;[^,;]*)*;base64,([A-Za-z0-9+/=\s]*)$/i.exec(src);
  if (!match) return null;
  try {
    const binary = atob(match[1]!.replace(/\s+/g, ""));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** A usable icon list from an untrusted `icons` value; prefers the theme given, then the first. */
export function pickIcon(icons: unknown, theme?: "light" | "dark"): McpIcon | null {
  if (!Array.isArray(icons)) return null;
  const valid = icons.filter((i): i is McpIcon => !!i && typeof i === "object" && typeof (i as McpIcon).src === "string" && refuseIconSrc((i as McpIcon).src) === null);
  return valid.find((i) => i.theme === theme) ?? valid.find((i) => !i.theme) ?? valid[0] ?? null;
}

/**
 * Where the browser loads an icon from: data URLs whose bytes are a raster image of at most
 * ICON_MAX_BYTES are used as they are; https URLs go through the console's icon route.
 */
export function iconSrc(icon: McpIcon): string | null {
  if (refuseIconSrc(icon.src)) return null;
  if (icon.src.startsWith("data:") || icon.src.startsWith("DATA:")) {
    const bytes = decodeDataUrl(icon.src);
    const type = bytes && bytes.length <= ICON_MAX_BYTES ? sniffImageType(bytes) : null;
    return type ? icon.src.replace(/^data:[^;,]+/i, `data:${type}`) : null;
  }
  return `/api/v1/icons?src=${encodeURIComponent(icon.src)}`;
}
