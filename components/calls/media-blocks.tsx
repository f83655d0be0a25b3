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

/** An image content block: inline, a zoom dialog, and a download; SVG and non-images refused. */
export function ImageBlock({ data, mimeType }: { data: unknown; mimeType: unknown }) {
  const { src, notice } = useMemo(() => imageSource(data, mimeType), [data, mimeType]);
  const [zoom, setZoom] = useState(false);
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
  return (
    <div className="flex flex-col items-start gap-1.5">
      {notice && <Notice>{notice}</Notice>}
      <button type="button" onClick={() => setZoom(true)} aria-label="Zoom image" className="cursor-zoom-in rounded border">
        {/* a data: URL built from the server's base64 */}
        <img src={src} alt="Image returned by the server" className="max-h-96 max-w-full object-contain" />
      </button>
      <div className="flex items-center gap-2 text-[11px] text-muted">
        <span>
          {type}, {formatBytes(size)}
        </span>
        <Button size="sm" onClick={() => downloadBase64(data as string, `image.${EXTENSIONS[type] ?? "bin"}`)}>
          Download image
        </Button>
      </div>
      <Dialog open={zoom} onClose={() => setZoom(false)} title="Image" className="w-[min(90vw,80rem)]" footer={<Button onClick={() => setZoom(false)}>Close</Button>}>
        <div className="max-h-[75vh] overflow-auto">
          {/* the same data: URL, full size */}
          <img src={src} alt="Image returned by the server, full size" className="max-w-none" />
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
