"use client";

import { useMemo } from "react";
import { Button } from "@/components/ui/button";
import { JsonTree } from "@/components/ui/json-tree";
import { formatBytes } from "./format";
import { RawPreview } from "./media-blocks";
import { asString, base64Bytes, downloadBase64, fileNameFromUri, imageSource, isBase64, sniffBase64Image } from "./safe-content";
import { TextBlock } from "./text-block";

/**
 * One `contents` entry of resources/read or an embedded resource: text with highlighting by
 * mimeType, raster images previewed, every other blob (PDF included) offered as a download.
 */
export function ResourceContents({ contents }: { contents: Record<string, unknown> }) {
  const text = asString(contents.text);
  const blob = asString(contents.blob);
  const mimeType = asString(contents.mimeType);
  const filename = fileNameFromUri(contents.uri);
  if (text !== undefined) {
    return (
      <div className="flex flex-col gap-1">
        {mimeType && <span className="text-[11px] text-muted">{mimeType}</span>}
        <TextBlock text={text} mimeType={mimeType} filename={filename} />
      </div>
    );
  }
  if (blob !== undefined) return <BlobContents blob={blob} mimeType={mimeType} filename={filename} />;
  return (
    <div className="flex flex-col gap-1">
      <p role="note" className="text-xs text-amber-700 dark:text-amber-300">
        This resource has neither text nor blob; its raw contents:
      </p>
      <JsonTree value={contents} />
    </div>
  );
}

function BlobContents({ blob, mimeType, filename }: { blob: string; mimeType?: string; filename: string }) {
  const valid = useMemo(() => isBase64(blob), [blob]);
  const image = useMemo(() => (valid && sniffBase64Image(blob) ? imageSource(blob, mimeType) : null), [valid, blob, mimeType]);
  if (!valid) {
    return (
      <div className="flex flex-col gap-1">
        <p role="note" className="text-xs text-amber-700 dark:text-amber-300">
          The blob is not valid base64, so it cannot be previewed or downloaded.
        </p>
        <RawPreview value={blob} />
      </div>
    );
  }
  const pdf = mimeType?.toLowerCase().startsWith("application/pdf");
  return (
    <div className="flex flex-col items-start gap-2">
      {image?.notice && <p role="note" className="text-xs text-amber-700 dark:text-amber-300">{image.notice}</p>}
      {image?.src && (
        // a data: URL built from the server's base64
        <img src={image.src} alt={`Preview of ${filename}`} className="max-h-64 max-w-full rounded border object-contain" />
      )}
      {pdf && <p className="text-xs text-muted">PDFs are not opened inside the console (they can carry script and forms); download it to view it.</p>}
      <div className="flex items-center gap-2 text-xs text-muted">
        <span data-testid="blob-info">
          Binary {mimeType ?? "data"}, {formatBytes(base64Bytes(blob))}
        </span>
        <Button size="sm" onClick={() => downloadBase64(blob, filename)}>
          Download {filename}
        </Button>
      </div>
    </div>
  );
}
