"use client";

import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { JsonTree } from "@/components/ui/json-tree";
import { Annotations } from "./annotations";
import { AudioBlock, ImageBlock } from "./media-blocks";
import { ResourceContents } from "./resource-contents";
import { ResourceLinkBody } from "./resource-link";
import { asRecord, asString } from "./safe-content";
import { TextBlock } from "./text-block";

export { ResourceContents } from "./resource-contents";

const KNOWN = new Set(["text", "image", "audio", "resource_link", "resource"]);

/** MCP content blocks (text, image, audio, resource_link, embedded resource), rendered as inert as possible. */
export function ContentBlocks({ blocks }: { blocks: unknown }) {
  const list = Array.isArray(blocks) ? blocks : blocks === undefined || blocks === null ? [] : [blocks];
  if (list.length === 0) return <p className="text-xs text-muted">No content.</p>;
  return (
    <ol className="flex flex-col gap-2" aria-label="Content">
      {!Array.isArray(blocks) && (
        <li role="note" className="text-xs text-amber-700 dark:text-amber-300">
          content is not an array; shown as one block.
        </li>
      )}
      {list.map((block, i) => (
        <li key={i}>
          <ContentBlock block={block} />
        </li>
      ))}
    </ol>
  );
}

function Frame({ type, meta, annotations, children }: { type: string; meta?: ReactNode; annotations?: unknown; children: ReactNode }) {
  return (
    <div className="overflow-hidden rounded-md border" data-block-type={type}>
      <div className="flex min-w-0 items-center gap-2 border-b bg-panel px-2 py-1 text-[11px] text-muted">
        <Badge>{type}</Badge>
        {meta}
        <Annotations value={annotations} />
      </div>
      <div className="p-2">{children}</div>
    </div>
  );
}

function ContentBlock({ block }: { block: unknown }) {
  const b = asRecord(block);
  const type = asString(b?.type) ?? "unknown";
  if (!b || !KNOWN.has(type)) {
    return (
      <Frame type={type}>
        <p role="note" className="mb-1 text-xs text-amber-700 dark:text-amber-300">
          {b ? `Unknown content type ${JSON.stringify(type)}; its raw data:` : "This content block is not an object; its raw data:"}
        </p>
        <JsonTree value={block} />
      </Frame>
    );
  }
  const mimeType = asString(b.mimeType);

  if (type === "text") {
    const text = asString(b.text);
    return (
      <Frame type="text" annotations={b.annotations}>
        {text === undefined ? <NotText value={b.text} /> : <TextBlock text={text} mimeType={mimeType} />}
      </Frame>
    );
  }
  if (type === "image") {
    return (
      <Frame type="image" meta={<span>{mimeType ?? "no type"}</span>} annotations={b.annotations}>
        <ImageBlock data={b.data} mimeType={b.mimeType} />
      </Frame>
    );
  }
  if (type === "audio") {
    return (
      <Frame type="audio" meta={<span>{mimeType ?? "no type"}</span>} annotations={b.annotations}>
        <AudioBlock data={b.data} mimeType={b.mimeType} />
      </Frame>
    );
  }
  if (type === "resource_link") {
    return (
      <Frame type="resource_link" meta={mimeType && <span>{mimeType}</span>} annotations={b.annotations}>
        <ResourceLinkBody link={b} />
      </Frame>
    );
  }
  const resource = asRecord(b.resource);
  return (
    <Frame type="resource" meta={<span className="truncate font-mono">{asString(resource?.uri)}</span>} annotations={b.annotations ?? resource?.annotations}>
      {resource ? <ResourceContents contents={resource} /> : <NotText value={b.resource} what="resource" />}
    </Frame>
  );
}

function NotText({ value, what = "text" }: { value: unknown; what?: string }) {
  return (
    <div className="flex flex-col gap-1">
      <p role="note" className="text-xs text-amber-700 dark:text-amber-300">
        The block's {what} is missing or not {what === "text" ? "a string" : "an object"}; its raw value:
      </p>
      <JsonTree value={value ?? null} />
    </div>
  );
}
