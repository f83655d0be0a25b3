"use client";

import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { JsonTree } from "@/components/ui/json-tree";
import { formatBytes } from "./format";
import { audioDataUrl, base64Bytes, downloadBase64, imageSource } from "./safe-content";

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" };

function Notice({ children }: { children: string }) {
  return (
    <p role="note" className="text-xs text-amber-700 dark:text-amber-300">
      {children}
    </p>
  );
}

/** Truncated raw data for blocks that cannot be shown; never the whole megabytes. */
export function RawPreview({ value }: { value: unknown }) {
  const preview = useMemo(() => {
    if (typeof value === "string") return value.length > 2000 ? `${value.slice(0, 2000)}… (${formatBytes(value.length)})` : value;
    return value;
  }, [value]);
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-muted">Raw data</summary>
      <div className="mt-1 max-h-64 overflow-auto rounded bg-panel p-2">
        {typeof preview === "string" ? <pre className="font-mono break-all whitespace-pre-wrap">{preview}</pre> : <JsonTree value={preview} />}
      </div>
    </details>
  );
}

/** Images smaller than this (their longer side, px) are scaled up by a whole factor to at least it. */
const MIN_SIDE = 96;
/** The zoom view scales a small image up by a whole factor to about this size. */
const ZOOM_SIDE = 512;

type Natural = { width: number; height: number };

/** The whole factor that brings an image's longer side to at least `side` px (1 when it is that large). */
function upscale(size: Natural | null, side: number): number {
  const longer = size ? Math.max(size.width, size.height) : 0;
  return longer > 0 && longer < side ? Math.ceil(side / longer) : 1;
}

/** Width and height styles of an image shown `factor` times its size (crisp pixels when enlarged). */
function scaled(size: Natural | null, factor: number) {
  if (!size || factor === 1) return undefined;
  return { width: size.width * factor, height: size.height * factor, imageRendering: "pixelated" as const };
}

/** An image content block: shown at a readable size with its own stated, a zoom dialog, and a download; SVG and non-images refused. */
export function ImageBlock({ data, mimeType }: { data: unknown; mimeType: unknown }) {
  const { src, notice } = useMemo(() => imageSource(data, mimeType), [data, mimeType]);
  const [zoom, setZoom] = useState(false);
  const [natural, setNatural] = useState<Natural | null>(null);
  if (!src) {
    return (
      <div className="flex flex-col gap-1">
        {notice && <Notice>{notice}</Notice>}
        <RawPreview value={data} />
      </div>
    );
  }
  const type = src.slice(5, src.indexOf(";"));
  const size = typeof data === "string" ? base64Bytes(data) : 0;
  const inline = upscale(natural, MIN_SIDE);
  const zoomed = upscale(natural, ZOOM_SIDE);
  const dimensions = natural ? `${natural.width} × ${natural.height} px` : null;
  return (
    <div className="flex flex-col items-start gap-1.5">
      {notice && <Notice>{notice}</Notice>}
      <button
        type="button"
        onClick={() => setZoom(true)}
        aria-label={`Zoom image${dimensions ? ` (${dimensions})` : ""}`}
        className="cursor-zoom-in rounded border"
        data-testid="image-zoom"
      >
        {/* a data: URL built from the server's base64 */}
        <img
          src={src}
          alt="Image returned by the server"
          className="max-h-96 max-w-full object-contain"
          style={scaled(natural, inline)}
          onLoad={(e) => setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
        />
      </button>
      <div className="flex flex-wrap items-center gap-2 text-[11px] text-muted">
        <span data-testid="image-info">
          {type}
          {dimensions && `, ${dimensions}`}, {formatBytes(size)}
          {inline > 1 && `, shown at ${inline}×`}
        </span>
        <Button size="sm" onClick={() => downloadBase64(data as string, `image.${EXTENSIONS[type] ?? "bin"}`)}>
          Download image
        </Button>
      </div>
      <Dialog
        open={zoom}
        onClose={() => setZoom(false)}
        title={`Image${dimensions ? `, ${dimensions}` : ""}${zoomed > 1 ? `, shown at ${zoomed}×` : ""}`}
        className="w-[min(90vw,80rem)]"
        footer={<Button onClick={() => setZoom(false)}>Close</Button>}
      >
        <div className="flex max-h-[75vh] justify-center overflow-auto">
          {/* the same data: URL, large */}
          <img src={src} alt="Image returned by the server, enlarged" className="max-w-none" style={scaled(natural, zoomed)} data-testid="image-zoomed" />
        </div>
      </Dialog>
    </div>
  );
}

/** An audio content block: a native player for base64 audio/*, else a notice and the raw data. */
export function AudioBlock({ data, mimeType }: { data: unknown; mimeType: unknown }) {
  const src = useMemo(() => audioDataUrl(data, mimeType), [data, mimeType]);
  if (!src) {
    return (
      <div className="flex flex-col gap-1">
        <Notice>Audio not played: it is not base64 data with an audio/* type.</Notice>
        <RawPreview value={data} />
      </div>
    );
  }
  return <audio controls src={src} className="w-full" aria-label="Audio returned by the server" />;
}
