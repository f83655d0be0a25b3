"use client";

import { lazy, Suspense } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { JsonTree } from "@/components/ui/json-tree";
import { Loading } from "@/components/ui/spinner";
import type { CallDto } from "@/lib/domains/calls";
import type { ToolDefinition } from "@/lib/mcp";

type ToolAnnotations = NonNullable<ToolDefinition["annotations"]>;

// The run form (rjsf, ajv, CodeMirror) is most of the server page's JavaScript: fetched when a tool is opened.
const ToolRunner = lazy(() => import("./tool-runner").then((m) => ({ default: m.ToolRunner })));

const HINTS: { key: keyof ToolAnnotations; yes: [string, BadgeTone]; no?: [string, BadgeTone] }[] = [
  { key: "readOnlyHint", yes: ["read-only", "green"] },
  { key: "destructiveHint", yes: ["destructive", "red"], no: ["non-destructive", "neutral"] },
  { key: "idempotentHint", yes: ["idempotent", "blue"] },
  { key: "openWorldHint", yes: ["open world", "violet"], no: ["closed world", "neutral"] },
];

/** Badges for the annotations a tool sets explicitly (they are hints from the server, not guarantees). */
function ToolHints({ annotations }: { annotations?: ToolAnnotations }) {
  if (!annotations || typeof annotations !== "object") return null;
  const badges = HINTS.flatMap(({ key, yes, no }) => {
    const value = annotations[key];
    const spec = value === true ? yes : value === false ? no : undefined;
    return spec ? [{ key, label: spec[0], tone: spec[1], value }] : [];
  });
  if (badges.length === 0) return null;
  return (
    <ul aria-label="Hints" className="flex flex-wrap gap-1">
      {badges.map((b) => (
        <li key={b.key}>
          <Badge tone={b.tone} title={`${b.key}: ${String(b.value)}`}>
            {b.label}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

export function ToolDetail({ serverId, tool, defaultTimeoutMs, source }: { serverId: string; tool: ToolDefinition; defaultTimeoutMs?: number; source?: CallDto }) {
  const title = tool.title ?? tool.annotations?.title;
  return (
    <article aria-label={`Tool ${tool.name}`} className="flex flex-col gap-4">
      <header className="flex flex-col gap-1.5">
        <div className="flex flex-wrap items-baseline gap-2">
          <h2 className="text-base font-semibold">{title ?? tool.name}</h2>
          {title && <code className="font-mono text-xs text-muted">{tool.name}</code>}
        </div>
        <ToolHints annotations={tool.annotations} />
        {tool.description && <p className="max-w-3xl text-sm whitespace-pre-wrap text-fg/90">{tool.description}</p>}
        <div className="flex flex-wrap gap-2">
          <SchemaDetails label="Input schema" schema={tool.inputSchema} />
          {tool.outputSchema && <SchemaDetails label="Output schema" schema={tool.outputSchema} />}
        </div>
      </header>
      <Suspense fallback={<Loading label="Loading the run form…" />}>
        <ToolRunner key={tool.name} serverId={serverId} tool={tool} defaultTimeoutMs={defaultTimeoutMs} source={source} />
      </Suspense>
    </article>
  );
}

function SchemaDetails({ label, schema }: { label: string; schema: unknown }) {
  return (
    <details className="min-w-0 flex-1 basis-72 rounded-md border text-xs">
      <summary className="cursor-pointer px-2 py-1 font-medium">{label}</summary>
      <div className="max-h-80 overflow-auto border-t p-2">
        <JsonTree value={schema ?? {}} label={label} openDepth={3} />
      </div>
    </details>
  );
}
