"use client";

import { useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/alert";
import { Field, Input, Textarea } from "@/components/ui/field";
import type { InteractionDto } from "@/lib/interactions";
import { AskedBy } from "./interaction-host";
import { useAnswer } from "./use-answer";

interface Message {
  role?: string;
  content?: unknown;
}

/** Content blocks as plain text: text as is, anything else (images, tool use/results) summarised as JSON. */
function contentText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) => {
      const block = (b ?? {}) as { type?: string; text?: string };
      return block.type === "text" && typeof block.text === "string" ? block.text : `[${block.type ?? "content"}] ${JSON.stringify(b)}`;
    })
    .join("\n");
}

/**
 * Sampling: the request (messages by role, system prompt, model preferences, tools offered, max
 * tokens) and a reply the person writes as the assistant, or a decline. Replies are text only.
 */
export function SamplingDialog({ interaction, waiting }: { interaction: InteractionDto; waiting: number }) {
  // Sampling has no "cancel": dismissing the dialog declines.
  const { respond, answer, dismiss, open } = useAnswer(interaction.id, { action: "decline" });
  const request = interaction.request as {
    messages?: Message[];
    systemPrompt?: string;
    modelPreferences?: unknown;
    tools?: { name?: string; description?: string }[];
    maxTokens?: number;
    temperature?: number;
    stopSequences?: string[];
  };
  const [text, setText] = useState("");
  const [model, setModel] = useState("human");
  return (
    <Dialog
      open={open}
      onClose={dismiss}
      title="A server asks for a completion (sampling)"
      description={<AskedBy interaction={interaction} waiting={waiting} />}
      className="w-[min(44rem,calc(100vw-2rem))]"
      footer={
        <>
          <Button onClick={() => answer({ action: "decline" })} disabled={respond.isPending}>
            Decline
          </Button>
          <Button variant="primary" onClick={() => answer({ action: "reply", text, model: model.trim() || "human", stopReason: "endTurn" })} busy={respond.isPending}>
            Send reply
          </Button>
        </>
      }
    >
      <section className="flex max-h-[40vh] flex-col gap-2 overflow-auto text-sm" aria-label="Request">
        {request.systemPrompt && (
          <p className="rounded border p-2 text-xs">
            <strong>System prompt:</strong> <span className="whitespace-pre-wrap">{request.systemPrompt}</span>
          </p>
        )}
        {(request.messages ?? []).map((m, i) => (
          <div key={i} className="rounded border p-2">
            <div className="text-xs font-semibold text-muted">{String(m.role ?? "?")}</div>
            <div className="whitespace-pre-wrap">{contentText(m.content)}</div>
          </div>
        ))}
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-xs text-muted">
          <dt>Max tokens</dt>
          <dd>{String(request.maxTokens ?? "—")}</dd>
          <dt>Temperature</dt>
          <dd>{String(request.temperature ?? "—")}</dd>
          {request.stopSequences?.length ? (
            <>
              <dt>Stop sequences</dt>
              <dd className="font-mono break-all">{JSON.stringify(request.stopSequences)}</dd>
            </>
          ) : null}
          <dt>Model preferences</dt>
          <dd className="font-mono break-all">{request.modelPreferences ? JSON.stringify(request.modelPreferences) : "—"}</dd>
          <dt>Tools offered</dt>
          <dd>{request.tools?.length ? request.tools.map((t) => t.name).join(", ") + " (reply with text; tool use is not offered)" : "none"}</dd>
        </dl>
      </section>
      <Field label="Your reply (as the assistant)">
        {(aria) => <Textarea {...aria} data-autofocus rows={5} value={text} onChange={(e) => setText(e.target.value)} />}
      </Field>
      <Field label="Model name reported">{(aria) => <Input {...aria} value={model} onChange={(e) => setModel(e.target.value)} />}</Field>
      {respond.error && <ErrorAlert error={respond.error} title="Could not answer" />}
    </Dialog>
  );
}
