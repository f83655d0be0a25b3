"use client";

import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { JsonTree } from "@/components/ui/json-tree";
import { formatBytes } from "./format";
import { asRecord, asString, audioDataUrl, base64Bytes, downloadBase64, fileNameFromUri, imageDataUrl, isHttpUrl } from "./safe-content";

/** MCP content blocks (text, image, audio, resource_link, embedded resource), rendered as inert as possible. */
export function ContentBlocks({ blocks }: { blocks: unknown }) {
  const list = Array.isArray(blocks) ? blocks : blocks === undefined || blocks === null ? [] : [blocks];
  if (list.length === 0) return <p className="text-xs text-muted">No content.</p>;
  return (
    <ol className="flex flex-col gap-2" aria-label="Content">
      {list.map((block, i) => (
        <li key={i}>
          <ContentBlock block={block} />
        </li>
      ))}
    </ol>
  );
}

function Frame({ type, meta, children }: { type: string; meta?: ReactNode; children: ReactNode }) {
  return (
    <div className="overflow-hidden rounded-md border">
      <div className="flex items-center gap-2 border-b bg-panel px-2 py-1 text-[11px] text-muted">
        <Badge>{type}</Badge>
        {meta}
      </div>
      <div className="p-2">{children}</div>
    </div>
  );
}

export function ContentBlock({ block }: { block: unknown }) {
  const b = asRecord(block);
  const type = asString(b?.type) ?? "unknown";
  if (!b) {
    return (
      <Frame type="unknown">
        <JsonTree value={block} />
      </Frame>
    );
  }

  if (type === "text") {
    return (
      <Frame type="text">
        <pre className="max-h-[32rem] overflow-auto font-mono text-xs">{asString(b.text) ?? ""}</pre>
      </Frame>
    );
  }

  if (type === "image") {
    const src = imageDataUrl(b.data, b.mimeType);
    return (
      <Frame type="image" meta={<span>{asString(b.mimeType) ?? "no type"}</span>}>
        {src ? (
          // eslint-disable-next-line @next/next/no-img-element -- a data: URL built from the server's base64
          <img src={src} alt="Image returned by the server" className="max-h-96 max-w-full rounded border object-contain" />
        ) : (
          <p className="text-xs text-amber-700 dark:text-amber-300">
            Image not shown: only base64 PNG, JPEG, GIF or WebP is displayed (this one is {JSON.stringify(asString(b.mimeType) ?? "untyped")}).
          </p>
        )}
      </Frame>
    );
  }

  if (type === "audio") {
    const src = audioDataUrl(b.data, b.mimeType);
    return (
      <Frame type="audio" meta={<span>{asString(b.mimeType) ?? "no type"}</span>}>
        {src ? (
          <audio controls src={src} className="w-full" aria-label="Audio returned by the server" />
        ) : (
          <p className="text-xs text-amber-700 dark:text-amber-300">Audio not played: it is not base64 data with an audio/* type.</p>
        )}
      </Frame>
    );
  }

  if (type === "resource_link") return <ResourceLink link={b} />;

  if (type === "resource") {
    const resource = asRecord(b.resource);
    return (
      <Frame type="resource" meta={<span className="truncate font-mono">{asString(resource?.uri)}</span>}>
        {resource ? <ResourceContents contents={resource} /> : <JsonTree value={b.resource} />}
      </Frame>
    );
  }

  return (
    <Frame type={type}>
      <JsonTree value={block} />
    </Frame>
  );
}

function ResourceLink({ link }: { link: Record<string, unknown> }) {
  const uri = asString(link.uri) ?? "";
  const name = asString(link.title) ?? asString(link.name) ?? uri;
  return (
    <Frame type="resource_link" meta={asString(link.mimeType) && <span>{asString(link.mimeType)}</span>}>
      <div className="flex flex-col gap-0.5 text-sm">
        <span className="font-medium">{name}</span>
        {isHttpUrl(uri) ? (
          <a href={uri} target="_blank" rel="noopener noreferrer nofollow" className="font-mono text-xs break-all text-accent underline">
            {uri}
          </a>
        ) : (
          <span className="font-mono text-xs break-all">{uri}</span>
        )}
        {asString(link.description) && <span className="text-xs text-muted">{asString(link.description)}</span>}
      </div>
    </Frame>
  );
}

/** One `contents` entry of resources/read or an embedded resource: text in <pre>, blob as a download. */
export function ResourceContents({ contents }: { contents: Record<string, unknown> }) {
  const text = asString(contents.text);
  const blob = asString(contents.blob);
  const mimeType = asString(contents.mimeType);
  if (text !== undefined) {
    return (
      <div className="flex flex-col gap-1">
        {mimeType && <span className="text-[11px] text-muted">{mimeType}</span>}
        <pre className="max-h-[32rem] overflow-auto font-mono text-xs">{text}</pre>
      </div>
    );
  }
  if (blob !== undefined) {
    const image = imageDataUrl(blob, mimeType);
    const filename = fileNameFromUri(contents.uri);
    return (
      <div className="flex flex-col items-start gap-2">
        {image && (
          // eslint-disable-next-line @next/next/no-img-element -- a data: URL built from the server's base64
          <img src={image} alt={`Preview of ${filename}`} className="max-h-64 max-w-full rounded border object-contain" />
        )}
        <div className="flex items-center gap-2 text-xs text-muted">
          <span>
            Binary {mimeType ?? "data"}, {formatBytes(base64Bytes(blob))}
          </span>
          <Button size="sm" onClick={() => downloadBase64(blob, filename)}>
            Download {filename}
          </Button>
        </div>
      </div>
    );
  }
  return <JsonTree value={contents} />;
}
