"use client";

import { useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { curlSnippet, typescriptSnippet, type CallDto } from "@/lib/domains/calls";
import { mcpServersConfig } from "@/lib/domains/servers";
import { useServer } from "@/lib/domains/servers/hooks";
import { CodeView } from "./code-view";

type Format = "curl" | "typescript" | "mcpServers";

const FORMATS: { id: Format; label: string; title: string; mimeType: string }[] = [
  { id: "curl", label: "curl", title: "Copy as curl (console API)", mimeType: "text/x-sh" },
  { id: "typescript", label: "TypeScript (MCP SDK)", title: "Copy as TypeScript (MCP SDK v2, straight to the server)", mimeType: "text/typescript" },
  { id: "mcpServers", label: "mcpServers entry", title: "Copy the server as an mcpServers entry", mimeType: "application/json" },
];

/** "Copy as": the call as curl against our API, as an SDK program against the server, or its server as config. */
export function CopyAsMenu({ call }: { call: CallDto }) {
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<Format | null>(null);
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !menu.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("pointerdown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);

  return (
    <div ref={menu} className="relative">
      <Button aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        Copy as…
      </Button>
      {open && (
        <div role="menu" aria-label="Copy as" className="absolute right-0 z-20 mt-1 flex w-56 flex-col rounded-md border bg-raised p-1 shadow-lg">
          {FORMATS.map((f) => (
            <button
              key={f.id}
              type="button"
              role="menuitem"
              className="rounded px-2 py-1.5 text-left text-sm hover:bg-hover focus-visible:bg-hover focus-visible:outline-none"
              onClick={() => {
                setOpen(false);
                setFormat(f.id);
              }}
            >
              {f.label}
            </button>
          ))}
        </div>
      )}
      {format && <SnippetDialog call={call} format={format} onClose={() => setFormat(null)} />}
    </div>
  );
}

function SnippetDialog({ call, format, onClose }: { call: CallDto; format: Format; onClose: () => void }) {
  const server = useServer(call.serverId);
  const spec = FORMATS.find((f) => f.id === format)!;
  const needsServer = format !== "curl";
  let text: string | null = null;
  if (format === "curl") text = curlSnippet(call, window.location.origin);
  else if (server.data && format === "typescript") text = typescriptSnippet(call, server.data);
  else if (server.data) text = JSON.stringify(mcpServersConfig([server.data]), null, 2);

  const notes: Record<Format, string> = {
    curl: "Runs the call through this console and records it. Set SWITCHBOARD_TOKEN to an API token (Settings → API tokens).",
    typescript:
      server.data?.kind === "http"
        ? "Talks to the server directly, not through the console, so nothing is recorded here. Header values are read from the environment."
        : "Starts the server locally over stdio, as its agent does, so nothing is recorded here.",
    mcpServers: "For Claude Desktop, Cursor or another console's import. Header values are ${VAR} placeholders; fill them in yourself.",
  };

  return (
    <Dialog open onClose={onClose} title={spec.title} description={notes[format]} className="w-[min(48rem,calc(100vw-2rem))]" footer={<Button onClick={onClose}>Close</Button>}>
      {needsServer && server.isPending ? (
        <p className="text-sm text-muted">Loading the server…</p>
      ) : needsServer && !server.data ? (
        <Alert tone="warning" title="The server is not available">
          Its settings can no longer be read (it may have been deleted), so this snippet cannot be made.
        </Alert>
      ) : text !== null ? (
        <div className="flex flex-col gap-2">
          <div data-testid="snippet" data-format={format}>
            <CodeView text={text} mimeType={spec.mimeType} className="max-h-[28rem]" />
          </div>
          <div className="flex justify-end">
            <CopyButton text={text} label="Copy to clipboard" size="md" />
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
