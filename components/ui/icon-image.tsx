"use client";

import { useState } from "react";
import { iconSrc, pickIcon } from "@/lib/core/icons";
import { cn } from "./cn";

/**
 * A server-provided icon (an MCP `icons` array), or nothing. Raster data URLs are shown as they
 * are; https icons load through the console's /api/v1/icons route; SVG and anything else never load.
 */
export function IconImage({ icons, className, label }: { icons: unknown; className?: string; label?: string }) {
  const icon = pickIcon(icons);
  const src = icon ? iconSrc(icon) : null;
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) return null;
  return (
    // a checked data: URL or our own icon route
    <img
      src={src}
      alt={label ?? ""}
      data-testid="server-icon"
      referrerPolicy="no-referrer"
      loading="lazy"
      onError={() => setFailed(src)}
      className={cn("size-4 shrink-0 rounded-sm object-contain", className)}
    />
  );
}
