"use client";

import { contentBlocks, type SamplingTool } from "@/lib/domains/interactions";

interface Message {
  role?: string;
  content?: unknown;
}

/** One content block: text as is; tool calls and tool results labelled with their ids; anything else as JSON. */
function BlockView({ block }: { block: Record<string, unknown> }) {
  if (block.type === "text" && typeof block.text === "string") return <div className="whitespace-pre-wrap">{block.text}</div>;
  if (block.type === "tool_use") {
    return (
      <div className="rounded bg-sunken p-1 text-xs">
        <span className="font-semibold">Tool call</span> <code>{String(block.name)}</code> <span className="text-muted">({String(block.id)})</span>
        <pre className="font-mono break-all whitespace-pre-wrap">{JSON.stringify(block.input ?? {}, null, 2)}</pre>
      </div>
    );
  }
  if (block.type === "tool_result") {
    return (
      <div className="rounded bg-sunken p-1 text-xs">
        <span className="font-semibold">Tool result</span> <span className="text-muted">for {String(block.toolUseId)}</span>
        {block.isError === true && <span className="ml-1 text-red-600">(error)</span>}
        {contentBlocks(block.content).map((b, i) => (
          <BlockView key={i} block={b} />
        ))}
      </div>
    );
  }
  return <div className="font-mono text-xs break-all">{`[${String(block.type ?? "content")}] ${JSON.stringify(block)}`}</div>;
}

/** The request's messages by role, including earlier tool calls and their results. */
export function SamplingConversation({ messages }: { messages: Message[] }) {
  return (
    <>
      {messages.map((m, i) => (
        <div key={i} className="flex flex-col gap-1 rounded border p-2">
          <div className="text-xs font-semibold text-muted">{String(m.role ?? "?")}</div>
          {contentBlocks(m.content).map((b, j) => (
            <BlockView key={j} block={b} />
          ))}
        </div>
      ))}
    </>
  );
}

/** The tools offered: name, description and the input schema behind a disclosure. */
export function OfferedTools({ tools, choice }: { tools: SamplingTool[]; choice: string }) {
  if (!tools.length) return <p className="text-xs text-muted">No tools offered.</p>;
  return (
    <section aria-label="Tools offered" className="flex flex-col gap-1 text-xs">
      <p className="font-semibold">
        Tools offered <span className="font-normal text-muted">(tool choice: {choice})</span>
      </p>
      <ul className="flex flex-col gap-1">
        {tools.map((t) => (
          <li key={t.name} className="rounded border p-1">
            <code className="font-semibold">{t.name}</code>
            {t.description && <span className="text-muted"> — {t.description}</span>}
            <details>
              <summary className="cursor-pointer text-muted">Input schema</summary>
              <pre className="font-mono break-all whitespace-pre-wrap">{JSON.stringify(t.inputSchema ?? {}, null, 2)}</pre>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
